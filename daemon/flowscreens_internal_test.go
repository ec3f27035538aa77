package daemon

import (
	"bytes"
	"strings"
	"testing"
)

// TestUnpackSnapshot: a kept snapshot comes back as it went in, plain
// JSON passes through, and a corrupt or oversized one is an error.
func TestUnpackSnapshot(t *testing.T) {
	raw := []byte(`{"schema":1,"width":1080,"height":2280,"windows":[]}`)
	packed := packSnapshot(raw)
	if len(packed) == 0 || bytes.Equal(packed, raw) {
		t.Fatalf("packed %q", packed)
	}
	for _, tc := range []struct {
		name string
		in   []byte
		want []byte
		err  string
	}{
		{"packed", packed, raw, ""},
		{"plain", raw, raw, ""},
		{"corrupt", append(packed[:10:10], 0, 1, 2, 3), nil, "unexpected EOF"},
		{"oversized", packSnapshot(bytes.Repeat([]byte{' '}, maxSnapshot+1)), nil, "more than"},
	} {
		got, err := unpackSnapshot(tc.in)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case tc.err == "" && (err != nil || !bytes.Equal(got, tc.want)):
			t.Errorf("%s: %q %v", tc.name, got, err)
		}
	}
}
