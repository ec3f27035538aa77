package intent

import (
	"reflect"
	"testing"
)

func TestSplitAdjacent(t *testing.T) {
	tmpl := "add a club member {first} {last}, phone {num}"
	ex := map[string]string{"first": "Dora", "last": "Lind", "num": "123"}
	for _, tt := range []struct {
		name  string
		slots map[string]string
		want  map[string]string
	}{
		{"split by example word counts", map[string]string{"first": "Maria Garcia", "num": "5"}, map[string]string{"first": "Maria", "last": "Garcia", "num": "5"}},
		{"already split", map[string]string{"first": "Ann", "last": "Lee"}, map[string]string{"first": "Ann", "last": "Lee"}},
		{"words do not add up", map[string]string{"first": "Ann Marie Lee"}, map[string]string{"first": "Ann Marie Lee"}},
		{"one word: nothing to share", map[string]string{"first": "Ann"}, map[string]string{"first": "Ann"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := SplitAdjacent(tmpl, tt.slots, ex); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}
}
