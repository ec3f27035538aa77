package knowledge

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
)

// AddLesson stores lesson l (AppID 0: a lesson for any app; a zero Created
// becomes now) and returns it with its ID. ErrInvalid: empty text;
// ErrNotFound: no app l.AppID.
func (s *Store) AddLesson(ctx context.Context, l Lesson) (Lesson, error) {
	const op = "AddLesson"
	if l.Text == "" {
		return Lesson{}, errf(op, ErrInvalid, "text: empty")
	}
	if l.Created.IsZero() {
		l.Created = now()
	}
	l.Created = fromMS(toMS(l.Created))
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO lessons (app_id, screen, command, text, created) VALUES (?, ?, ?, ?, ?) RETURNING id`,
			nullID(l.AppID), l.Screen, l.Command, l.Text, toMS(l.Created)).Scan(&l.ID)
	})
	if err != nil {
		return Lesson{}, wrap(op, err)
	}
	return l, nil
}

// Lessons lists lessons newest first, at most limit (limit <= 0: all).
// appID != 0 selects that app's lessons and those for any app; appID 0
// selects all lessons.
func (s *Store) Lessons(ctx context.Context, appID int64, limit int) ([]Lesson, error) {
	const op = "Lessons"
	if limit <= 0 {
		limit = -1
	}
	q := `SELECT id, ifnull(app_id, 0), screen, command, text, created FROM lessons`
	args := []any{}
	if appID != 0 {
		q += ` WHERE app_id = ? OR app_id IS NULL`
		args = append(args, appID)
	}
	q += ` ORDER BY created DESC, id DESC LIMIT ?`
	args = append(args, limit)
	rows, err := s.rdb.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	var out []Lesson
	for rows.Next() {
		var l Lesson
		var created int64
		if err := rows.Scan(&l.ID, &l.AppID, &l.Screen, &l.Command, &l.Text, &created); err != nil {
			return nil, wrap(op, err)
		}
		l.Created = fromMS(created)
		out = append(out, l)
	}
	return out, wrap(op, rows.Err())
}

func validOutcome(o string) bool {
	return o == OutcomeSuccess || o == OutcomeFailure || o == OutcomeError || o == OutcomeCancelled
}

// LogRun appends run r to the run log (a zero Started becomes now) and
// returns it with its ID. ErrInvalid: unknown outcome or negative
// counters; ErrNotFound: no flow r.FlowID.
func (s *Store) LogRun(ctx context.Context, r Run) (Run, error) {
	const op = "LogRun"
	switch {
	case !validOutcome(r.Outcome):
		return Run{}, errf(op, ErrInvalid, "outcome: unknown %q", r.Outcome)
	case r.Steps < 0 || r.LLMCalls < 0 || r.Tokens < 0 || r.DurationMS < 0:
		return Run{}, errf(op, ErrInvalid, "negative steps, llm_calls, tokens or duration_ms")
	}
	if r.Started.IsZero() {
		r.Started = now()
	}
	r.Started = fromMS(toMS(r.Started))
	err := s.write(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, `INSERT INTO runs (command, package, mode, outcome, error, flow_id, steps, llm_calls, tokens, duration_ms, started)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			r.Command, r.Package, r.Mode, r.Outcome, r.Error, nullID(r.FlowID), r.Steps, r.LLMCalls, r.Tokens,
			r.DurationMS, toMS(r.Started)).Scan(&r.ID)
	})
	if err != nil {
		return Run{}, wrap(op, err)
	}
	return r, nil
}

// Runs lists the run log newest first, at most limit (limit <= 0: all).
func (s *Store) Runs(ctx context.Context, limit int) ([]Run, error) {
	const op = "Runs"
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.rdb.QueryContext(ctx, `SELECT id, command, package, mode, outcome, error, ifnull(flow_id, 0), steps, llm_calls,
		tokens, duration_ms, started FROM runs ORDER BY started DESC, id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	var out []Run
	for rows.Next() {
		var r Run
		var started int64
		if err := rows.Scan(&r.ID, &r.Command, &r.Package, &r.Mode, &r.Outcome, &r.Error, &r.FlowID, &r.Steps,
			&r.LLMCalls, &r.Tokens, &r.DurationMS, &started); err != nil {
			return nil, wrap(op, err)
		}
		r.Started = fromMS(started)
		out = append(out, r)
	}
	return out, wrap(op, rows.Err())
}

func textHash(text string) string {
	h := sha256.Sum256([]byte(text))
	return hex.EncodeToString(h[:])
}

// Embedding returns the cached embedding of text by model. ErrNotFound:
// not cached.
func (s *Store) Embedding(ctx context.Context, model, text string) ([]float32, error) {
	const op = "Embedding"
	var stored string
	var blob []byte
	var dim int
	err := s.rdb.QueryRowContext(ctx, `SELECT text, dim, vector FROM embeddings WHERE model = ? AND text_hash = ?`,
		model, textHash(text)).Scan(&stored, &dim, &blob)
	if errors.Is(err, sql.ErrNoRows) || (err == nil && stored != text) {
		return nil, errf(op, ErrNotFound, "no %q embedding of the text", model)
	} else if err != nil {
		return nil, wrap(op, err)
	}
	if len(blob) != 4*dim {
		return nil, errf(op, nil, "stored vector has %d bytes, want %d", len(blob), 4*dim)
	}
	v := make([]float32, dim)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(blob[4*i:]))
	}
	return v, nil
}

// PutEmbedding caches v as the embedding of text by model, replacing an
// earlier one; the vector is stored as float32 little-endian.
// ErrInvalid: empty model, empty vector, or a NaN or infinite component.
func (s *Store) PutEmbedding(ctx context.Context, model, text string, v []float32) error {
	return s.PutEmbeddings(ctx, model, []string{text}, [][]float32{v})
}

// PutEmbeddings caches vs[i] as the embedding of texts[i] by model, all in
// one transaction (as PutEmbedding; nothing is written when one is
// invalid). ErrInvalid: empty model, len(texts) != len(vs), an empty
// vector, or a NaN or infinite component.
func (s *Store) PutEmbeddings(ctx context.Context, model string, texts []string, vs [][]float32) error {
	const op = "PutEmbedding"
	if model == "" {
		return errf(op, ErrInvalid, "model: empty")
	}
	if len(texts) != len(vs) {
		return errf(op, ErrInvalid, "%d texts, %d vectors", len(texts), len(vs))
	}
	blobs := make([][]byte, len(vs))
	for j, v := range vs {
		if len(v) == 0 {
			return errf(op, ErrInvalid, "vector: empty")
		}
		blob := make([]byte, 4*len(v))
		for i, x := range v {
			if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
				return errf(op, ErrInvalid, "vector[%d]: %v", i, x)
			}
			binary.LittleEndian.PutUint32(blob[4*i:], math.Float32bits(x))
		}
		blobs[j] = blob
	}
	created := toMS(now())
	err := s.write(ctx, func(tx *sql.Tx) error {
		for j, text := range texts {
			if _, err := tx.ExecContext(ctx, `INSERT INTO embeddings (model, text_hash, text, dim, vector, created) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT (model, text_hash) DO UPDATE SET text = excluded.text, dim = excluded.dim, vector = excluded.vector, created = excluded.created`,
				model, textHash(text), text, len(vs[j]), blobs[j], created); err != nil {
				return err
			}
		}
		return nil
	})
	return wrap(op, err)
}

// Setting returns the value of setting key. Values are stored as given
// (not encrypted); the store never logs them. ErrNotFound: not set.
func (s *Store) Setting(ctx context.Context, key string) (string, error) {
	var v string
	err := s.rdb.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", errf("Setting", ErrNotFound, "setting %q", key)
	}
	return v, wrap("Setting", err)
}

// SetSetting sets setting key to value. ErrInvalid: empty key.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	const op = "SetSetting"
	if key == "" {
		return errf(op, ErrInvalid, "key: empty")
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO settings (key, value) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
		return err
	})
	return wrap(op, err)
}

// DeleteSetting removes setting key. ErrNotFound: not set.
func (s *Store) DeleteSetting(ctx context.Context, key string) error {
	return s.updateOne(ctx, "DeleteSetting", "setting "+key, `DELETE FROM settings WHERE key = ?`, key)
}

// Settings returns all settings.
func (s *Store) Settings(ctx context.Context) (map[string]string, error) {
	rows, err := s.rdb.QueryContext(ctx, `SELECT key, value FROM settings`)
	if err != nil {
		return nil, wrap("Settings", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, wrap("Settings", err)
		}
		out[k] = v
	}
	return out, wrap("Settings", rows.Err())
}
