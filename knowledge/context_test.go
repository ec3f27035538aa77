package knowledge

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
)

func TestContextEntries(t *testing.T) {
	ctx := context.Background()
	st, err := Open(ctx, filepath.Join(t.TempDir(), "k.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mom, err := st.PutContext(ctx, ContextEntry{Kind: "Person", Name: " Mary Smith ", Aliases: []string{"Mom", "my  mother", "mom"},
		Values: []ContextValue{{Field: "Phone", Value: "+1 555 0100", Private: true}, {Field: "email", Value: "mary@example.org"}}})
	if err != nil {
		t.Fatal(err)
	}
	if mom.Name != "Mary Smith" || len(mom.Aliases) != 2 || mom.Aliases[0] != "mom" || mom.Aliases[1] != "my mother" {
		t.Fatalf("normalised: %+v", mom)
	}
	if err := st.SetContextValue(ctx, mom.ID, ContextValue{Field: "phone", Value: "+1 555 0199", Private: true, AllowInPrompt: true}); err != nil {
		t.Fatal(err)
	}
	got, err := st.ContextEntry(ctx, mom.ID)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := got.Value("phone"); !ok || v.Value != "+1 555 0199" || !v.Private || !v.AllowInPrompt {
		t.Errorf("phone after set: %+v", got.Values)
	}
	for _, bad := range []ContextEntry{
		{Kind: "pet", Name: "Rex"},
		{Kind: "place", Name: " "},
		{Kind: "place", Name: "home", Values: []ContextValue{{Field: "address", Value: "a"}, {Field: "Address", Value: "b"}}},
	} {
		if _, err := st.PutContext(ctx, bad); !errors.Is(err, ErrInvalid) {
			t.Errorf("PutContext(%+v): %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := st.PutContext(ctx, ContextEntry{ID: 999, Kind: "place", Name: "x"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown id: %v", err)
	}
	if err := st.DeleteContext(ctx, mom.ID); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteContext(ctx, mom.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("second delete: %v", err)
	}
	all, err := st.ContextEntries(ctx, "")
	if err != nil || len(all) != 0 {
		t.Errorf("after delete: %v %v", all, err)
	}
}
