package knowledge

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// check runs PRAGMA quick_check (https://www.sqlite.org/pragma.html#pragma_quick_check:
// page and b-tree structure, without index cross-checks) when the store
// opens, so a file damaged inside its pages is reported instead of used.
// It returns an *Error of kind ErrDamaged naming the first problems.
// Its cost is measured by BenchmarkOpenQuickCheck.
func (s *Store) check(ctx context.Context) error {
	rows, err := s.db.QueryContext(ctx, `PRAGMA quick_check(5)`)
	if err != nil {
		return damaged(s.path, err)
	}
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			rows.Close()
			return damaged(s.path, err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Close(); err != nil {
		return damaged(s.path, err)
	}
	if err := rows.Err(); err != nil {
		return damaged(s.path, err)
	}
	if len(problems) > 0 {
		return damaged(s.path, errors.New(strings.Join(problems, "; ")))
	}
	return nil
}

// damaged makes the ErrDamaged error of path, or passes err through when
// it is not about the file's contents (a context cancelled, say).
func damaged(path string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) && se.Code != sqlite3.ErrCorrupt && se.Code != sqlite3.ErrNotADB {
		return &Error{Op: "Open", Err: fmt.Errorf("%s: integrity check: %w", path, err)}
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return &Error{Op: "Open", Err: err}
	}
	return &Error{Op: "Open", Kind: ErrDamaged, Err: fmt.Errorf("%s is damaged (%v); `wayfinder store recover` moves it aside, "+
		"saves the flows that can still be read, and starts a fresh store", path, err)}
}

// Recovered says what Recover did.
type Recovered struct {
	MovedTo string `json:"moved_to"` // where the damaged file now is
	// FlowsExport is a flows JSON document (MarshalFlows) of the flows
	// that could still be read from the damaged file, "" when none could;
	// import it with ParseFlows + SaveFlow.
	FlowsExport string `json:"flows_export,omitempty"`
	Flows       int    `json:"flows"`
	SalvageErr  string `json:"salvage_error,omitempty"`
}

// Recover moves the database at path (with its -wal and -shm files) aside
// to path.damaged-<unix ms>, tries to read the flows the damaged copy
// still holds into path.damaged-<unix ms>.flows.json, and leaves path free
// for a fresh store (Open creates it). It fails only when the file cannot
// be moved; a failed salvage is reported in Recovered.SalvageErr.
func Recover(ctx context.Context, path string) (Recovered, error) {
	dst := fmt.Sprintf("%s.damaged-%d", path, time.Now().UnixMilli())
	if err := os.Rename(path, dst); err != nil {
		return Recovered{}, &Error{Op: "Recover", Err: err}
	}
	for _, suf := range []string{"-wal", "-shm"} {
		if err := os.Rename(path+suf, dst+suf); err != nil && !errors.Is(err, os.ErrNotExist) {
			return Recovered{MovedTo: dst}, &Error{Op: "Recover", Err: err}
		}
	}
	r := Recovered{MovedTo: dst}
	flows, err := salvageFlows(ctx, dst)
	if err != nil {
		r.SalvageErr = err.Error()
		return r, nil
	}
	if len(flows) == 0 {
		return r, nil
	}
	b, err := MarshalFlows(flows)
	if err != nil {
		r.SalvageErr = err.Error()
		return r, nil
	}
	r.FlowsExport, r.Flows = dst+".flows.json", len(flows)
	if err := os.WriteFile(r.FlowsExport, b, 0o600); err != nil {
		r.FlowsExport, r.Flows, r.SalvageErr = "", 0, err.Error()
	}
	return r, nil
}

// salvageFlows reads the flows of a damaged database, read-only, skipping
// the integrity check, keeping those that still validate.
func salvageFlows(ctx context.Context, path string) ([]Flow, error) {
	db, err := sql.Open("sqlite3", fileURI(path)+"?mode=ro&"+readerParams)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	flows, err := loadFlows(ctx, tx, "1 = 1", nil)
	if err != nil {
		return nil, err
	}
	var out []Flow
	for _, f := range flows {
		if ValidateFlow(&f) == nil {
			out = append(out, f)
		}
	}
	return out, nil
}
