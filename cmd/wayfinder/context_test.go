package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestContextCommand(t *testing.T) {
	ctx := context.Background()
	db := filepath.Join(t.TempDir(), "k.db")
	run := func(args ...string) (string, error) {
		var b bytes.Buffer
		err := cmdContext(ctx, append(args, "--db", db), &b)
		return b.String(), err
	}
	if _, err := run("set", "person", "Mary Smith", "phone=+1 555 0100", "email=mary@example.org", "--alias", "mom", "--alias", "my mother", "--private", "phone"); err != nil {
		t.Fatal(err)
	}
	if _, err := run("set", "person", "Mary Smith", "email=m@example.org", "--allow-in-prompt", "email"); err != nil {
		t.Fatal(err)
	}
	out, err := run("list")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out, "555 0100") || !strings.Contains(out, "mom, my mother") || !strings.Contains(out, "allowed in prompts") || strings.Count(out, "#") != 1 {
		t.Errorf("list:\n%s", out)
	}
	if out, _ := run("list", "--show-private"); !strings.Contains(out, "+1 555 0100") {
		t.Errorf("list --show-private:\n%s", out)
	}
	// two entries with one name: set must be told which
	if _, err := run("set", "person", "Alex"); err != nil {
		t.Fatal(err)
	}
	st, _ := openStore(ctx, db)
	es, _ := st.ContextEntries(ctx, "person")
	st.Close()
	if len(es) != 2 {
		t.Fatalf("%d entries", len(es))
	}
	// export, delete everything, import: the same library
	exp := filepath.Join(t.TempDir(), "ctx.json")
	if _, err := run("export", exp); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(exp); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("export file mode: %v %v", fi.Mode(), err)
	}
	for _, e := range es {
		if _, err := run("delete", "#"+strconv.FormatInt(e.ID, 10)); err != nil {
			t.Fatal(err)
		}
	}
	if out, _ := run("list"); !strings.Contains(out, "empty") {
		t.Errorf("after delete:\n%s", out)
	}
	if out, err := run("import", exp); err != nil || !strings.Contains(out, "imported 2") {
		t.Fatalf("import: %q %v", out, err)
	}
	if out, _ := run("list", "--show-private"); !strings.Contains(out, "+1 555 0100") || !strings.Contains(out, "Alex") {
		t.Errorf("after import:\n%s", out)
	}
	if _, err := run("set", "pet", "Rex"); err == nil {
		t.Error("an unknown kind was accepted")
	}
	if _, err := run("delete", "x"); err == nil {
		t.Error("a bad id was accepted")
	}
}
