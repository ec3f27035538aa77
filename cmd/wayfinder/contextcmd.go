package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/wayfinder-agent/wayfinder/knowledge"
)

const contextUsage = `wayfinder context — the owner's own values (people, places, accounts, preferences)

  wayfinder context list   [--db FILE] [--kind person|place|account|preference] [--show-private]
  wayfinder context set    [--db FILE] [--id N] KIND NAME [field=value ...] [--alias WORDS ...] [--private FIELD ...] [--allow-in-prompt FIELD ...]
  wayfinder context delete [--db FILE] ID
  wayfinder context export [--db FILE] [FILE]      JSON; private values included (it is the owner's own backup)
  wayfinder context import [--db FILE] FILE|-      adds the entries of an export

e.g. wayfinder context set person "Mary Smith" phone="+1 555 0100" --alias mom --private phone
`

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ",") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

func cmdContext(ctx context.Context, args []string, out io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(out, contextUsage)
		return nil
	}
	sub, args := args[0], args[1:]
	fs := newFlags("context " + sub)
	db := fs.String("db", "", "knowledge store file (default "+defaultDB()+")")
	kind := fs.String("kind", "", "only entries of this kind")
	showPrivate := fs.Bool("show-private", false, "list: show private values instead of ••••")
	id := fs.Int64("id", 0, "set: the entry to change (default: the one with this kind and name, else a new one)")
	var aliases, private, allow multi
	fs.Var(&aliases, "alias", "set: a word the owner uses for it (repeatable)")
	fs.Var(&private, "private", "set: a field whose value is private (repeatable)")
	fs.Var(&allow, "allow-in-prompt", "set: a private field that may still go into a model prompt (repeatable)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	st, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	switch sub {
	case "list":
		es, err := st.ContextEntries(ctx, *kind)
		if err != nil {
			return err
		}
		for _, e := range es {
			fmt.Fprintf(out, "#%d %s %q", e.ID, e.Kind, e.Name)
			if len(e.Aliases) > 0 {
				fmt.Fprintf(out, " (%s)", strings.Join(e.Aliases, ", "))
			}
			fmt.Fprintln(out)
			for _, v := range e.Values {
				val, flags := v.Value, ""
				if v.Private {
					flags = " [private]"
					if v.AllowInPrompt {
						flags = " [private, allowed in prompts]"
					}
					if !*showPrivate {
						val = "••••"
					}
				}
				fmt.Fprintf(out, "    %-10s %s%s\n", v.Field, val, flags)
			}
		}
		if len(es) == 0 {
			fmt.Fprintln(out, "(the context library is empty)")
		}
		return nil
	case "set":
		if len(pos) < 2 {
			return usageError{"context set: KIND and NAME are required\n" + contextUsage}
		}
		e, err := contextEntryFor(ctx, st, *id, pos[0], pos[1])
		if err != nil {
			return err
		}
		e.Aliases = append(e.Aliases, aliases...)
		for _, kv := range pos[2:] {
			f, v, ok := strings.Cut(kv, "=")
			if !ok {
				return usageError{fmt.Sprintf("context set: %q is not field=value", kv)}
			}
			setValue(&e, f, v)
		}
		for i := range e.Values {
			f := e.Values[i].Field
			for _, p := range private {
				if strings.EqualFold(p, f) {
					e.Values[i].Private = true
				}
			}
			for _, a := range allow {
				if strings.EqualFold(a, f) {
					e.Values[i].Private, e.Values[i].AllowInPrompt = true, true
				}
			}
		}
		saved, err := st.PutContext(ctx, e)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "saved #%d %s %q (%d values, %d aliases)\n", saved.ID, saved.Kind, saved.Name, len(saved.Values), len(saved.Aliases))
		return nil
	case "delete":
		if len(pos) != 1 {
			return usageError{"context delete: one ID is required"}
		}
		n, err := strconv.ParseInt(strings.TrimPrefix(pos[0], "#"), 10, 64)
		if err != nil {
			return usageError{fmt.Sprintf("context delete: %q is not an id", pos[0])}
		}
		if err := st.DeleteContext(ctx, n); err != nil {
			return err
		}
		fmt.Fprintf(out, "deleted #%d\n", n)
		return nil
	case "export":
		es, err := st.ContextEntries(ctx, *kind)
		if err != nil {
			return err
		}
		for i := range es {
			es[i].ID = 0
		}
		b, err := json.MarshalIndent(struct {
			Entries []knowledge.ContextEntry `json:"entries"`
		}{es}, "", "  ")
		if err != nil {
			return err
		}
		b = append(b, '\n')
		if len(pos) == 1 && pos[0] != "-" {
			return os.WriteFile(pos[0], b, 0o600) // private values: owner-only
		}
		_, err = out.Write(b)
		return err
	case "import":
		if len(pos) != 1 {
			return usageError{"context import: FILE (or -) is required"}
		}
		var b []byte
		if pos[0] == "-" {
			b, err = io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
		} else {
			b, err = os.ReadFile(pos[0])
		}
		if err != nil {
			return err
		}
		var in struct {
			Entries []knowledge.ContextEntry `json:"entries"`
		}
		dec := json.NewDecoder(strings.NewReader(string(b)))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&in); err != nil {
			return fmt.Errorf("context import %s: %w", pos[0], err)
		}
		for i, e := range in.Entries {
			e.ID = 0
			if _, err := st.PutContext(ctx, e); err != nil {
				return fmt.Errorf("context import %s: entry %d: %w", pos[0], i, err)
			}
		}
		fmt.Fprintf(out, "imported %d entries\n", len(in.Entries))
		return nil
	}
	return usageError{fmt.Sprintf("context: unknown subcommand %q\n%s", sub, contextUsage)}
}

// contextEntryFor returns the entry to change: by id, else the one entry
// of kind named name, else a new one. Two entries of that name: the owner
// must say which with --id.
func contextEntryFor(ctx context.Context, st *knowledge.Store, id int64, kind, name string) (knowledge.ContextEntry, error) {
	if id != 0 {
		e, err := st.ContextEntry(ctx, id)
		if err != nil {
			return e, err
		}
		e.Kind, e.Name = kind, name
		return e, nil
	}
	es, err := st.ContextEntries(ctx, strings.ToLower(kind))
	if err != nil {
		return knowledge.ContextEntry{}, err
	}
	var same []knowledge.ContextEntry
	for _, e := range es {
		if strings.EqualFold(e.Name, strings.TrimSpace(name)) {
			same = append(same, e)
		}
	}
	switch len(same) {
	case 0:
		return knowledge.ContextEntry{Kind: kind, Name: name}, nil
	case 1:
		return same[0], nil
	}
	ids := make([]string, len(same))
	for i, e := range same {
		ids[i] = "#" + strconv.FormatInt(e.ID, 10)
	}
	return knowledge.ContextEntry{}, usageError{fmt.Sprintf("context set: several %ss are called %q (%s): choose one with --id", kind, name, strings.Join(ids, ", "))}
}

// setValue sets field to v on e, replacing a value of the same field
// (keeping its private flags) or adding one; an empty v removes it.
func setValue(e *knowledge.ContextEntry, field, v string) {
	field = strings.ToLower(strings.TrimSpace(field))
	for i := range e.Values {
		if e.Values[i].Field == field {
			if v == "" {
				e.Values = append(e.Values[:i], e.Values[i+1:]...)
			} else {
				e.Values[i].Value = v
			}
			return
		}
	}
	if v != "" {
		e.Values = append(e.Values, knowledge.ContextValue{Field: field, Value: v})
	}
}
