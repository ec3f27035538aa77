package knowledge

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"
)

// Store is the knowledge database: one SQLite file in WAL mode. It is safe
// for concurrent use by goroutines; writes are serialised on one connection
// (each write is one IMMEDIATE transaction), reads run on a small pool of
// read-only connections and see the last committed state. Several processes
// may open the same file; they wait for each other up to the busy timeout
// (5000 ms).
type Store struct {
	path string
	db   *sql.DB // writer: one connection, BEGIN IMMEDIATE
	rdb  *sql.DB // readers: query_only connections, deferred BEGIN
}

// Connection settings, as go-sqlite3 DSN parameters (see the Open doc
// comment of github.com/mattn/go-sqlite3, sqlite3.go). WAL lets readers run
// beside the writer; synchronous=NORMAL in WAL mode loses no committed
// transaction on a process crash, only possibly the last ones on power loss
// (https://www.sqlite.org/pragma.html#pragma_synchronous).
const (
	writerParams = "_journal_mode=WAL&_foreign_keys=on&_busy_timeout=5000&_synchronous=NORMAL&_txlock=immediate"
	readerParams = "_foreign_keys=on&_busy_timeout=5000&_query_only=on"
	maxReaders   = 4
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered schema change, migrations/NNNN_name.sql.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations lists the embedded migrations in version order. File names
// must be NNNN_name.sql with unique positive versions.
func migrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, err
	}
	var ms []migration
	seen := map[int]string{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".sql") {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s: name must be NNNN_name.sql", name)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("migrations %s and %s share version %d", prev, name, v)
		}
		seen[v] = name
		b, err := fs.ReadFile(migrationFiles, path.Join("migrations", name))
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{version: v, name: name, sql: string(b)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	return ms, nil
}

// SchemaVersion is the highest migration version embedded in this build.
func SchemaVersion() int {
	ms, err := migrations()
	if err != nil || len(ms) == 0 {
		return 0
	}
	return ms[len(ms)-1].version
}

// Open opens (creating if needed) the database file at path and migrates
// its schema up to SchemaVersion. The directory must exist. It fails with
// ErrInvalid for an empty path and with a plain error when the file's
// schema is newer than this build or the file is not a database.
func Open(ctx context.Context, path string) (*Store, error) {
	const op = "Open"
	if path == "" {
		return nil, &Error{Op: op, Kind: ErrInvalid, Err: errors.New("empty database path")}
	}
	uri := fileURI(path)
	db, err := sql.Open("sqlite3", uri+"?"+writerParams)
	if err != nil {
		return nil, &Error{Op: op, Err: err}
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)
	s := &Store{path: path, db: db}
	if err := s.check(ctx); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, &Error{Op: op, Err: fmt.Errorf("%s: %w", path, err)}
	}
	rdb, err := sql.Open("sqlite3", uri+"?"+readerParams)
	if err != nil {
		db.Close()
		return nil, &Error{Op: op, Err: err}
	}
	rdb.SetMaxOpenConns(maxReaders)
	rdb.SetMaxIdleConns(maxReaders)
	s.rdb = rdb
	return s, nil
}

// fileURI makes a SQLite URI filename of a path, escaping the characters
// that URIs and go-sqlite3's DSN parsing treat specially.
func fileURI(p string) string {
	r := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")
	return "file:" + r.Replace(p)
}

// migrate creates schema_migrations and applies every embedded migration
// not yet recorded there, each in its own transaction.
func (s *Store) migrate(ctx context.Context) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	if _, err := s.db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY,
		name    TEXT    NOT NULL,
		applied INTEGER NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	var current int
	if err := s.db.QueryRowContext(ctx, `SELECT ifnull(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if latest := SchemaVersion(); current > latest {
		return fmt.Errorf("database schema version %d is newer than this build's %d", current, latest)
	}
	for _, m := range ms {
		if m.version <= current {
			continue
		}
		err := s.write(ctx, func(tx *sql.Tx) error {
			// Another process may have applied it meanwhile.
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE version = ?`, m.version).Scan(&n); err != nil {
				return err
			}
			if n > 0 {
				return nil
			}
			if _, err := tx.ExecContext(ctx, m.sql); err != nil {
				return err
			}
			_, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)`,
				m.version, m.name, time.Now().UnixMilli())
			return err
		})
		if err != nil {
			return fmt.Errorf("migration %s: %w", m.name, err)
		}
	}
	return nil
}

// AppliedVersion is the schema version recorded in the database (the
// highest applied migration).
func (s *Store) AppliedVersion(ctx context.Context) (int, error) {
	var v int
	if err := s.rdb.QueryRowContext(ctx, `SELECT ifnull(max(version), 0) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, wrap("AppliedVersion", err)
	}
	return v, nil
}

// Close closes the database. Pending writes were committed or rolled back
// already (every write is one transaction).
func (s *Store) Close() error {
	err := errors.Join(s.rdb.Close(), s.db.Close())
	if err != nil {
		return &Error{Op: "Close", Err: err}
	}
	return nil
}

// Path is the database file's path as given to Open.
func (s *Store) Path() string { return s.path }

// Size is the bytes the database takes on disk: the file plus its -wal and
// -shm files.
func (s *Store) Size() (int64, error) {
	var total int64
	for _, suffix := range []string{"", "-wal", "-shm"} {
		fi, err := os.Stat(s.path + suffix)
		switch {
		case err == nil:
			total += fi.Size()
		case suffix != "" && errors.Is(err, fs.ErrNotExist):
		default:
			return 0, &Error{Op: "Size", Err: err}
		}
	}
	return total, nil
}

// Stats counts the rows of every table, by table name.
func (s *Store) Stats(ctx context.Context) (map[string]int64, error) {
	tables := []string{"apps", "screens", "elements", "transitions", "flows", "flow_steps", "flow_slots",
		"flow_commands", "lessons", "runs", "embeddings", "settings"}
	out := make(map[string]int64, len(tables))
	err := s.read(ctx, func(tx *sql.Tx) error {
		for _, t := range tables {
			var n int64
			if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM `+t).Scan(&n); err != nil {
				return err
			}
			out[t] = n
		}
		return nil
	})
	if err != nil {
		return nil, wrap("Stats", err)
	}
	return out, nil
}

// write runs fn in one IMMEDIATE transaction on the writer connection,
// committing when fn returns nil. fn must use only tx (the writer has one
// connection).
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, ignoreDone(tx.Rollback()))
	}
	return tx.Commit()
}

// read runs fn in one read transaction: all its queries see one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.rdb.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	return fn(tx)
}

func ignoreDone(err error) error {
	if errors.Is(err, sql.ErrTxDone) {
		return nil
	}
	return err
}

// wrap turns a database error into an *Error of operation op: no row is
// ErrNotFound, a UNIQUE violation ErrConflict, a CHECK or NOT NULL
// violation ErrInvalid, a FOREIGN KEY violation ErrNotFound (the row
// referred to does not exist). An *Error passes through unchanged.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	var ke *Error
	if errors.As(err, &ke) {
		return err
	}
	e := &Error{Op: op, Err: err}
	var se sqlite3.Error
	switch {
	case errors.Is(err, sql.ErrNoRows):
		e.Kind = ErrNotFound
	case errors.As(err, &se):
		switch se.ExtendedCode {
		case sqlite3.ErrConstraintUnique, sqlite3.ErrConstraintPrimaryKey:
			e.Kind = ErrConflict
		case sqlite3.ErrConstraintCheck, sqlite3.ErrConstraintNotNull:
			e.Kind = ErrInvalid
		case sqlite3.ErrConstraintForeignKey:
			e.Kind = ErrNotFound
		}
	}
	return e
}

// errf makes an *Error of kind with a formatted detail.
func errf(op string, kind error, format string, args ...any) error {
	return &Error{Op: op, Kind: kind, Err: fmt.Errorf(format, args...)}
}

// Times are stored as unix milliseconds and read back in UTC.
func toMS(t time.Time) int64 { return t.UnixMilli() }

func fromMS(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// now is the current time at the stored precision.
func now() time.Time { return time.Now().UTC().Truncate(time.Millisecond) }

// nullID maps the id 0 ("none") to SQL NULL.
func nullID(id int64) any {
	if id == 0 {
		return nil
	}
	return id
}

func validSource(s string) bool {
	return s == SourceExploration || s == SourceLearned || s == SourceDemonstration
}
