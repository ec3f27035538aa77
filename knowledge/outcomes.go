package knowledge

import (
	"context"
	"database/sql"
)

// Outcome is where a known action on an element has led: the screen
// reached and how often (transitions with a success count only).
type Outcome struct {
	To     int64 `json:"to"`
	Dialog bool  `json:"dialog"` // the screen reached is drawn as a dialog
	Count  int   `json:"count"`
}

// Outcomes returns where action on the element with descriptor key
// elementKey of the screen with fingerprint fromFP (app appID) has led in
// the UI transition graph, from every source. None: the screen, the
// element or the edge is unknown.
func (s *Store) Outcomes(ctx context.Context, appID int64, fromFP, elementKey, action string) ([]Outcome, error) {
	out, err := s.outcomes(ctx, `SELECT t.to_screen, d.dialog, sum(t.count)
			FROM transitions t
			JOIN screens f ON f.id = t.from_screen
			JOIN elements e ON e.id = t.element_id
			JOIN screens d ON d.id = t.to_screen
			WHERE f.app_id = ? AND f.fingerprint = ? AND e.key = ? AND t.action = ? AND t.count > 0
			GROUP BY t.to_screen, d.dialog`, appID, fromFP, elementKey, action)
	return out, wrap("Outcomes", err)
}

// OutcomesAnywhere is Outcomes from every screen of app appID that has an
// element with descriptor key elementKey: where the same element (a list
// row, a button) has led from any screen it was seen on — a call log's
// row filtered by a search is the row of the unfiltered log.
func (s *Store) OutcomesAnywhere(ctx context.Context, appID int64, elementKey, action string) ([]Outcome, error) {
	out, err := s.outcomes(ctx, `SELECT t.to_screen, d.dialog, sum(t.count)
			FROM transitions t
			JOIN screens f ON f.id = t.from_screen
			JOIN elements e ON e.id = t.element_id
			JOIN screens d ON d.id = t.to_screen
			WHERE f.app_id = ? AND e.key = ? AND t.action = ? AND t.count > 0
			GROUP BY t.to_screen, d.dialog`, appID, elementKey, action)
	return out, wrap("OutcomesAnywhere", err)
}

func (s *Store) outcomes(ctx context.Context, query string, args ...any) ([]Outcome, error) {
	var out []Outcome
	err := s.read(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		for rows.Next() {
			var o Outcome
			if err := rows.Scan(&o.To, &o.Dialog, &o.Count); err != nil {
				rows.Close()
				return err
			}
			out = append(out, o)
		}
		return closeRows(rows)
	})
	return out, err
}
