package knowledge

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
)

// ImportStats counts the rows ImportGraph wrote (inserted or updated).
type ImportStats struct {
	Screens     int `json:"screens"`
	Elements    int `json:"elements"`
	Transitions int `json:"transitions"`
}

// UpsertApp records the app with package name pkg, setting its label when
// label is not empty, and returns it. ErrInvalid: empty pkg.
func (s *Store) UpsertApp(ctx context.Context, pkg, label string) (App, error) {
	const op = "UpsertApp"
	if pkg == "" {
		return App{}, errf(op, ErrInvalid, "empty package")
	}
	var a App
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		a, err = upsertApp(ctx, tx, pkg, label)
		return err
	})
	return a, wrap(op, err)
}

func upsertApp(ctx context.Context, tx *sql.Tx, pkg, label string) (App, error) {
	a := App{Package: pkg}
	err := tx.QueryRowContext(ctx, `INSERT INTO apps (package, label) VALUES (?, ?)
		ON CONFLICT (package) DO UPDATE SET label = CASE WHEN excluded.label <> '' THEN excluded.label ELSE label END
		RETURNING id, label`, pkg, label).Scan(&a.ID, &a.Label)
	return a, err
}

// App returns the app with id. ErrNotFound: no such app.
func (s *Store) App(ctx context.Context, id int64) (App, error) {
	a := App{ID: id}
	err := s.rdb.QueryRowContext(ctx, `SELECT package, label FROM apps WHERE id = ?`, id).Scan(&a.Package, &a.Label)
	if errors.Is(err, sql.ErrNoRows) {
		return App{}, errf("App", ErrNotFound, "app %d", id)
	}
	return a, wrap("App", err)
}

// AppByPackage returns the app with package name pkg. ErrNotFound: no such
// app.
func (s *Store) AppByPackage(ctx context.Context, pkg string) (App, error) {
	a := App{Package: pkg}
	err := s.rdb.QueryRowContext(ctx, `SELECT id, label FROM apps WHERE package = ?`, pkg).Scan(&a.ID, &a.Label)
	if errors.Is(err, sql.ErrNoRows) {
		return App{}, errf("AppByPackage", ErrNotFound, "app %q", pkg)
	}
	return a, wrap("AppByPackage", err)
}

// Apps lists all apps by package name.
func (s *Store) Apps(ctx context.Context) ([]App, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, package, label FROM apps ORDER BY package`)
	if err != nil {
		return nil, wrap("Apps", err)
	}
	defer rows.Close()
	var out []App
	for rows.Next() {
		var a App
		if err := rows.Scan(&a.ID, &a.Package, &a.Label); err != nil {
			return nil, wrap("Apps", err)
		}
		out = append(out, a)
	}
	return out, wrap("Apps", rows.Err())
}

// upsertScreenSQL inserts a screen or, when (app_id, fingerprint) exists,
// adds to its visits and overwrites activity, description and snapshot only
// with non-empty values.
const upsertScreenSQL = `INSERT INTO screens (app_id, fingerprint, activity, description, snapshot, visits, dialog)
	VALUES (?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (app_id, fingerprint) DO UPDATE SET
		visits = visits + excluded.visits,
		dialog = excluded.dialog,
		activity = CASE WHEN excluded.activity <> '' THEN excluded.activity ELSE activity END,
		description = CASE WHEN excluded.description <> '' THEN excluded.description ELSE description END,
		snapshot = ifnull(excluded.snapshot, snapshot)
	RETURNING id, activity, description, visits, dialog`

// UpsertScreen records a visit to screen sc of app sc.AppID, keyed by
// (AppID, Fingerprint): a new screen starts at 1 visit, a known one gets
// one more; Activity, Description and Snapshot replace the stored ones
// only when not empty. It returns the stored screen (ID, Visits, Activity,
// Description from the database; Snapshot as given). ErrInvalid: zero
// AppID or empty fingerprint; ErrNotFound: no app sc.AppID.
func (s *Store) UpsertScreen(ctx context.Context, sc Screen) (Screen, error) {
	const op = "UpsertScreen"
	if sc.AppID == 0 || sc.Fingerprint == "" {
		return Screen{}, errf(op, ErrInvalid, "screen needs app_id and fingerprint (got %d, %q)", sc.AppID, sc.Fingerprint)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, upsertScreenSQL, sc.AppID, sc.Fingerprint, sc.Activity, sc.Description,
			nullBlob(sc.Snapshot), 1, sc.Dialog).Scan(&sc.ID, &sc.Activity, &sc.Description, &sc.Visits, &sc.Dialog)
	})
	if err != nil {
		return Screen{}, wrap(op, err)
	}
	return sc, nil
}

func nullBlob(b []byte) any {
	if len(b) == 0 {
		return nil
	}
	return b
}

const screenCols = `id, app_id, fingerprint, activity, description, visits, dialog`

func scanScreen(row interface{ Scan(...any) error }) (Screen, error) {
	var sc Screen
	err := row.Scan(&sc.ID, &sc.AppID, &sc.Fingerprint, &sc.Activity, &sc.Description, &sc.Visits, &sc.Dialog)
	return sc, err
}

// Screen returns the screen with id, without its snapshot. ErrNotFound: no
// such screen.
func (s *Store) Screen(ctx context.Context, id int64) (Screen, error) {
	sc, err := scanScreen(s.rdb.QueryRowContext(ctx, `SELECT `+screenCols+` FROM screens WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Screen{}, errf("Screen", ErrNotFound, "screen %d", id)
	}
	return sc, wrap("Screen", err)
}

// ScreenByFingerprint returns app appID's screen with fingerprint fp,
// without its snapshot. ErrNotFound: no such screen.
func (s *Store) ScreenByFingerprint(ctx context.Context, appID int64, fp string) (Screen, error) {
	sc, err := scanScreen(s.rdb.QueryRowContext(ctx, `SELECT `+screenCols+` FROM screens WHERE app_id = ? AND fingerprint = ?`, appID, fp))
	if errors.Is(err, sql.ErrNoRows) {
		return Screen{}, errf("ScreenByFingerprint", ErrNotFound, "app %d screen %q", appID, fp)
	}
	return sc, wrap("ScreenByFingerprint", err)
}

// ScreenSnapshot returns the stored snapshot of screen id; nil when it has
// none. ErrNotFound: no such screen.
func (s *Store) ScreenSnapshot(ctx context.Context, id int64) ([]byte, error) {
	var b []byte
	err := s.rdb.QueryRowContext(ctx, `SELECT snapshot FROM screens WHERE id = ?`, id).Scan(&b)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errf("ScreenSnapshot", ErrNotFound, "screen %d", id)
	}
	return b, wrap("ScreenSnapshot", err)
}

// SetScreenDescription sets what screen id is for. ErrNotFound: no such
// screen.
func (s *Store) SetScreenDescription(ctx context.Context, id int64, desc string) error {
	return s.updateOne(ctx, "SetScreenDescription", fmt.Sprintf("screen %d", id),
		`UPDATE screens SET description = ? WHERE id = ?`, desc, id)
}

// updateOne runs one UPDATE/DELETE that must touch exactly one row, else
// ErrNotFound naming what.
func (s *Store) updateOne(ctx context.Context, op, what, query string, args ...any) error {
	err := s.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, query, args...)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return errf(op, ErrNotFound, "%s", what)
		}
		return nil
	})
	return wrap(op, err)
}

// upsertElementSQL inserts an element or, when (screen_id, key) exists,
// replaces its descriptor and sets label and doc only when not empty.
const upsertElementSQL = `INSERT INTO elements (screen_id, key, descriptor, label, doc) VALUES (?, ?, ?, ?, ?)
	ON CONFLICT (screen_id, key) DO UPDATE SET
		descriptor = excluded.descriptor,
		label = CASE WHEN excluded.label <> '' THEN excluded.label ELSE label END,
		doc = CASE WHEN excluded.doc <> '' THEN excluded.doc ELSE doc END
	RETURNING id, label, doc`

// prepElement fills an element's defaults: Key from the descriptor
// (screen.Descriptor.Key), Label from the descriptor's label; it returns
// the descriptor JSON.
func prepElement(e *Element) (string, error) {
	if e.Key == "" {
		e.Key = e.Descriptor.Key()
	}
	if e.Label == "" {
		e.Label = e.Descriptor.Label()
	}
	b, err := json.Marshal(e.Descriptor)
	return string(b), err
}

// UpsertElement records element e of screen e.ScreenID, keyed by
// (ScreenID, Key); an empty Key is taken from e.Descriptor.Key() and an
// empty Label from e.Descriptor.Label(). A known element gets the new
// descriptor, and the new label and doc when not empty. It returns the
// stored element. ErrInvalid: zero ScreenID; ErrNotFound: no screen
// e.ScreenID.
func (s *Store) UpsertElement(ctx context.Context, e Element) (Element, error) {
	const op = "UpsertElement"
	if e.ScreenID == 0 {
		return Element{}, errf(op, ErrInvalid, "element has no screen_id")
	}
	desc, err := prepElement(&e)
	if err != nil {
		return Element{}, &Error{Op: op, Kind: ErrInvalid, Err: err}
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, upsertElementSQL, e.ScreenID, e.Key, desc, e.Label, e.Doc).Scan(&e.ID, &e.Label, &e.Doc)
	})
	if err != nil {
		return Element{}, wrap(op, err)
	}
	return e, nil
}

// SetElementDoc sets the documentation of element id (what using it does,
// AppAgent §3.3). ErrNotFound: no such element.
func (s *Store) SetElementDoc(ctx context.Context, id int64, doc string) error {
	return s.updateOne(ctx, "SetElementDoc", fmt.Sprintf("element %d", id),
		`UPDATE elements SET doc = ? WHERE id = ?`, doc, id)
}

const elementCols = `e.id, e.screen_id, e.key, e.descriptor, e.label, e.doc`

func scanElement(row interface{ Scan(...any) error }) (Element, error) {
	var e Element
	var desc []byte
	if err := row.Scan(&e.ID, &e.ScreenID, &e.Key, &desc, &e.Label, &e.Doc); err != nil {
		return e, err
	}
	if err := unmarshalDescriptor(desc, &e.Descriptor); err != nil {
		return e, fmt.Errorf("element %d descriptor: %w", e.ID, err)
	}
	return e, nil
}

// Element returns the element with id. ErrNotFound: no such element.
func (s *Store) Element(ctx context.Context, id int64) (Element, error) {
	e, err := scanElement(s.rdb.QueryRowContext(ctx, `SELECT `+elementCols+` FROM elements e WHERE e.id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Element{}, errf("Element", ErrNotFound, "element %d", id)
	}
	return e, wrap("Element", err)
}

// Elements lists the elements of screen screenID by id (empty when the
// screen has none or does not exist).
func (s *Store) Elements(ctx context.Context, screenID int64) ([]Element, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT `+elementCols+` FROM elements e WHERE e.screen_id = ? ORDER BY e.id`, screenID)
	if err != nil {
		return nil, wrap("Elements", err)
	}
	defer rows.Close()
	var out []Element
	for rows.Next() {
		e, err := scanElement(rows)
		if err != nil {
			return nil, wrap("Elements", err)
		}
		out = append(out, e)
	}
	return out, wrap("Elements", rows.Err())
}

// recordTransitionSQL inserts an edge or adds count and failures to the
// existing one (same from, action, element, text, to, source).
const recordTransitionSQL = `INSERT INTO transitions (app_id, from_screen, to_screen, action, element_id, text, count, failures, source)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (from_screen, action, ifnull(element_id, 0), text, to_screen, source) DO UPDATE SET
		count = count + excluded.count,
		failures = failures + excluded.failures
	RETURNING id, count, failures`

// prepTransition checks t and fills its defaults: Count 1 when Count and
// Failures are both 0.
func prepTransition(t *Transition) error {
	switch {
	case t.From == 0 || t.To == 0:
		return errors.New("transition needs from and to screens")
	case t.Action == "":
		return errors.New("transition has no action")
	case t.Count < 0 || t.Failures < 0:
		return fmt.Errorf("negative count %d or failures %d", t.Count, t.Failures)
	case !validSource(t.Source):
		return fmt.Errorf("unknown source %q", t.Source)
	}
	if t.Count == 0 && t.Failures == 0 {
		t.Count = 1
	}
	return nil
}

// RecordTransition adds t to the UI transition graph: a new edge, or
// t.Count and t.Failures added to the edge with the same From, Action,
// ElementID, Text, To and Source. Count defaults to 1 when Count and
// Failures are both 0 (one successful observation); Source defaults to
// SourceLearned; AppID defaults to the app of screen From. It returns the
// stored edge with its totals. ErrInvalid: missing from/to/action, negative
// counts, unknown source, screens of different apps, or an element not on
// screen From; ErrNotFound: a screen or element does not exist.
func (s *Store) RecordTransition(ctx context.Context, t Transition) (Transition, error) {
	const op = "RecordTransition"
	if t.Source == "" {
		t.Source = SourceLearned
	}
	if err := prepTransition(&t); err != nil {
		return Transition{}, &Error{Op: op, Kind: ErrInvalid, Err: err}
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		var fromApp, toApp int64
		if err := tx.QueryRowContext(ctx, `SELECT app_id FROM screens WHERE id = ?`, t.From).Scan(&fromApp); errors.Is(err, sql.ErrNoRows) {
			return errf(op, ErrNotFound, "screen %d", t.From)
		} else if err != nil {
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT app_id FROM screens WHERE id = ?`, t.To).Scan(&toApp); errors.Is(err, sql.ErrNoRows) {
			return errf(op, ErrNotFound, "screen %d", t.To)
		} else if err != nil {
			return err
		}
		if t.AppID == 0 {
			t.AppID = fromApp
		}
		if fromApp != t.AppID || toApp != t.AppID {
			return errf(op, ErrInvalid, "screens %d (app %d) and %d (app %d) not both of app %d", t.From, fromApp, t.To, toApp, t.AppID)
		}
		if t.ElementID != 0 {
			var on int64
			if err := tx.QueryRowContext(ctx, `SELECT screen_id FROM elements WHERE id = ?`, t.ElementID).Scan(&on); errors.Is(err, sql.ErrNoRows) {
				return errf(op, ErrNotFound, "element %d", t.ElementID)
			} else if err != nil {
				return err
			}
			if on != t.From {
				return errf(op, ErrInvalid, "element %d is on screen %d, not on screen %d", t.ElementID, on, t.From)
			}
		}
		return tx.QueryRowContext(ctx, recordTransitionSQL, t.AppID, t.From, t.To, t.Action, nullID(t.ElementID),
			t.Text, t.Count, t.Failures, t.Source).Scan(&t.ID, &t.Count, &t.Failures)
	})
	if err != nil {
		return Transition{}, wrap(op, err)
	}
	return t, nil
}

// ImportGraph writes the UI transition graph g in one transaction. The ids
// inside g are local references: Screen.ID names a screen of g,
// Element.ScreenID, Transition.From/To and Transition.ElementID refer to
// those ids and to Element.ID within g (ElementID 0: global action).
// Screens are upserted by fingerprint (Visits added), elements by key,
// transitions by edge (counts added; Source defaults to SourceExploration),
// so importing again merges. The app is g.App.ID when set (it must exist),
// else the app with package g.App.Package (created when new). Nothing is
// written when any reference is wrong. It returns the rows written.
// ErrInvalid: duplicate or zero local ids, dangling references, invalid
// screens, elements or transitions; ErrNotFound: no app g.App.ID.
func (s *Store) ImportGraph(ctx context.Context, g Graph) (ImportStats, error) {
	const op = "ImportGraph"
	var st ImportStats
	if g.App.ID == 0 && g.App.Package == "" {
		return st, errf(op, ErrInvalid, "graph has no app id or package")
	}
	// Validate everything before taking the write lock.
	screenIdx := make(map[int64]int, len(g.Screens))
	for i, sc := range g.Screens {
		if sc.ID == 0 {
			return st, errf(op, ErrInvalid, "screens[%d]: zero local id", i)
		}
		if _, dup := screenIdx[sc.ID]; dup {
			return st, errf(op, ErrInvalid, "screens[%d]: duplicate local id %d", i, sc.ID)
		}
		if sc.Fingerprint == "" {
			return st, errf(op, ErrInvalid, "screens[%d]: empty fingerprint", i)
		}
		if sc.Visits < 0 {
			return st, errf(op, ErrInvalid, "screens[%d]: negative visits", i)
		}
		screenIdx[sc.ID] = i
	}
	elemScreen := make(map[int64]int64, len(g.Elements)) // local element id -> local screen id
	descs := make([]string, len(g.Elements))
	elems := make([]Element, len(g.Elements))
	copy(elems, g.Elements)
	for i := range elems {
		e := &elems[i]
		if e.ID == 0 {
			return st, errf(op, ErrInvalid, "elements[%d]: zero local id", i)
		}
		if _, dup := elemScreen[e.ID]; dup {
			return st, errf(op, ErrInvalid, "elements[%d]: duplicate local id %d", i, e.ID)
		}
		if _, ok := screenIdx[e.ScreenID]; !ok {
			return st, errf(op, ErrInvalid, "elements[%d]: unknown screen %d", i, e.ScreenID)
		}
		elemScreen[e.ID] = e.ScreenID
		d, err := prepElement(e)
		if err != nil {
			return st, errf(op, ErrInvalid, "elements[%d]: %v", i, err)
		}
		descs[i] = d
	}
	trans := make([]Transition, len(g.Transitions))
	copy(trans, g.Transitions)
	for i := range trans {
		t := &trans[i]
		if t.Source == "" {
			t.Source = SourceExploration
		}
		if err := prepTransition(t); err != nil {
			return st, errf(op, ErrInvalid, "transitions[%d]: %v", i, err)
		}
		_, okFrom := screenIdx[t.From]
		_, okTo := screenIdx[t.To]
		if !okFrom || !okTo {
			return st, errf(op, ErrInvalid, "transitions[%d]: unknown screen %d or %d", i, t.From, t.To)
		}
		if t.ElementID != 0 {
			on, ok := elemScreen[t.ElementID]
			if !ok {
				return st, errf(op, ErrInvalid, "transitions[%d]: unknown element %d", i, t.ElementID)
			}
			if on != t.From {
				return st, errf(op, ErrInvalid, "transitions[%d]: element %d is on screen %d, not %d", i, t.ElementID, on, t.From)
			}
		}
	}

	err := s.write(ctx, func(tx *sql.Tx) error {
		appID := g.App.ID
		if appID != 0 {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM apps WHERE id = ?`, appID).Scan(&n); err != nil {
				return err
			}
			if n == 0 {
				return errf(op, ErrNotFound, "app %d", appID)
			}
		} else {
			a, err := upsertApp(ctx, tx, g.App.Package, g.App.Label)
			if err != nil {
				return err
			}
			appID = a.ID
		}
		screenStmt, err := tx.PrepareContext(ctx, upsertScreenSQL)
		if err != nil {
			return err
		}
		defer screenStmt.Close()
		screenID := make(map[int64]int64, len(g.Screens))
		for i, sc := range g.Screens {
			var id int64
			var a, d string
			var v int
			var dlg bool
			if err := screenStmt.QueryRowContext(ctx, appID, sc.Fingerprint, sc.Activity, sc.Description,
				nullBlob(sc.Snapshot), sc.Visits, sc.Dialog).Scan(&id, &a, &d, &v, &dlg); err != nil {
				return fmt.Errorf("screens[%d]: %w", i, err)
			}
			screenID[sc.ID] = id
			st.Screens++
		}
		elemStmt, err := tx.PrepareContext(ctx, upsertElementSQL)
		if err != nil {
			return err
		}
		defer elemStmt.Close()
		elemID := make(map[int64]int64, len(elems))
		for i, e := range elems {
			var id int64
			var l, d string
			if err := elemStmt.QueryRowContext(ctx, screenID[e.ScreenID], e.Key, descs[i], e.Label, e.Doc).Scan(&id, &l, &d); err != nil {
				return fmt.Errorf("elements[%d]: %w", i, err)
			}
			elemID[e.ID] = id
			st.Elements++
		}
		transStmt, err := tx.PrepareContext(ctx, recordTransitionSQL)
		if err != nil {
			return err
		}
		defer transStmt.Close()
		for i, t := range trans {
			var id int64
			var c, f int
			var el any
			if t.ElementID != 0 {
				el = elemID[t.ElementID]
			}
			if err := transStmt.QueryRowContext(ctx, appID, screenID[t.From], screenID[t.To], t.Action, el,
				t.Text, t.Count, t.Failures, t.Source).Scan(&id, &c, &f); err != nil {
				return fmt.Errorf("transitions[%d]: %w", i, err)
			}
			st.Transitions++
		}
		return nil
	})
	if err != nil {
		return ImportStats{}, wrap(op, err)
	}
	return st, nil
}

// Graph loads the UI transition graph of app appID in one snapshot:
// screens (without snapshots; see ScreenSnapshot), elements and
// transitions, each ordered by id (empty, not nil, slices when there are
// none). ErrNotFound: no such app.
func (s *Store) Graph(ctx context.Context, appID int64) (*Graph, error) {
	const op = "Graph"
	g := &Graph{App: App{ID: appID}, Screens: []Screen{}, Elements: []Element{}, Transitions: []Transition{}}
	err := s.read(ctx, func(tx *sql.Tx) error {
		err := tx.QueryRowContext(ctx, `SELECT package, label FROM apps WHERE id = ?`, appID).Scan(&g.App.Package, &g.App.Label)
		if errors.Is(err, sql.ErrNoRows) {
			return errf(op, ErrNotFound, "app %d", appID)
		} else if err != nil {
			return err
		}
		rows, err := tx.QueryContext(ctx, `SELECT `+screenCols+` FROM screens WHERE app_id = ? ORDER BY id`, appID)
		if err != nil {
			return err
		}
		for rows.Next() {
			sc, err := scanScreen(rows)
			if err != nil {
				rows.Close()
				return err
			}
			g.Screens = append(g.Screens, sc)
		}
		if err := closeRows(rows); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT `+elementCols+` FROM elements e JOIN screens s ON s.id = e.screen_id
			WHERE s.app_id = ? ORDER BY e.id`, appID)
		if err != nil {
			return err
		}
		for rows.Next() {
			e, err := scanElement(rows)
			if err != nil {
				rows.Close()
				return err
			}
			g.Elements = append(g.Elements, e)
		}
		if err := closeRows(rows); err != nil {
			return err
		}
		rows, err = tx.QueryContext(ctx, `SELECT id, app_id, from_screen, to_screen, action, ifnull(element_id, 0), text, count, failures, source
			FROM transitions WHERE app_id = ? ORDER BY id`, appID)
		if err != nil {
			return err
		}
		for rows.Next() {
			var t Transition
			if err := rows.Scan(&t.ID, &t.AppID, &t.From, &t.To, &t.Action, &t.ElementID, &t.Text, &t.Count, &t.Failures, &t.Source); err != nil {
				rows.Close()
				return err
			}
			g.Transitions = append(g.Transitions, t)
		}
		return closeRows(rows)
	})
	if err != nil {
		return nil, wrap(op, err)
	}
	return g, nil
}

// closeRows closes rows and returns the iteration error, if any.
func closeRows(rows *sql.Rows) error {
	err := rows.Err()
	return errors.Join(err, rows.Close())
}
