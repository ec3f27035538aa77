package knowledge

import (
	"context"
	"math"
	"reflect"
	"testing"
	"time"
)

func TestLessons(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	app, _ := s.UpsertApp(ctx, "com.example.app", "")
	other, _ := s.UpsertApp(ctx, "com.example.other", "")
	t0 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	in := []struct {
		l    Lesson
		kind error
	}{
		{Lesson{AppID: app.ID, Screen: "fp", Command: "send hi", Text: "the send button is the arrow", Created: t0}, nil},
		{Lesson{AppID: other.ID, Command: "x", Text: "other app", Created: t0.Add(time.Minute)}, nil},
		{Lesson{Text: "any app: confirm dialogs", Created: t0.Add(2 * time.Minute)}, nil},
		{Lesson{AppID: app.ID, Text: "now"}, nil},
		{Lesson{AppID: app.ID}, ErrInvalid},
		{Lesson{AppID: 999, Text: "x"}, ErrNotFound},
	}
	var saved []Lesson
	for _, tt := range in {
		l, err := s.AddLesson(ctx, tt.l)
		isKind(t, err, tt.kind)
		if err == nil {
			if l.ID == 0 || l.Created.IsZero() {
				t.Fatalf("AddLesson = %+v", l)
			}
			saved = append(saved, l)
		}
	}
	tests := []struct {
		appID int64
		limit int
		want  []int // indexes into saved, newest first
	}{
		{app.ID, 0, []int{3, 2, 0}},
		{app.ID, 2, []int{3, 2}},
		{other.ID, 0, []int{2, 1}},
		{0, 0, []int{3, 2, 1, 0}},
		{0, 1, []int{3}},
	}
	for _, tt := range tests {
		got, err := s.Lessons(ctx, tt.appID, tt.limit)
		isKind(t, err, nil)
		var want []Lesson
		for _, i := range tt.want {
			want = append(want, saved[i])
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Lessons(%d, %d) =\n%+v\nwant\n%+v", tt.appID, tt.limit, got, want)
		}
	}
}

func TestRuns(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	f := sampleFlow("com.example.app", "f", 1, 0)
	isKind(t, s.SaveFlow(ctx, &f), nil)
	t0 := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	in := []struct {
		r    Run
		kind error
	}{
		{Run{Command: "open mail", Package: "com.example.app", Mode: "replay", Outcome: OutcomeSuccess, FlowID: f.ID,
			Steps: 3, DurationMS: 1200, Started: t0}, nil},
		{Run{Command: "do x", Mode: "llm", Outcome: OutcomeError, Error: "timeout", LLMCalls: 2, Tokens: 900,
			Started: t0.Add(time.Second)}, nil},
		{Run{Command: "y", Outcome: OutcomeCancelled}, nil},
		{Run{Command: "z", Outcome: "meh"}, ErrInvalid},
		{Run{Command: "z", Outcome: OutcomeFailure, Steps: -1}, ErrInvalid},
		{Run{Command: "z", Outcome: OutcomeFailure, FlowID: 999}, ErrNotFound},
	}
	var saved []Run
	for _, tt := range in {
		r, err := s.LogRun(ctx, tt.r)
		isKind(t, err, tt.kind)
		if err == nil {
			saved = append(saved, r)
		}
	}
	got, err := s.Runs(ctx, 0)
	isKind(t, err, nil)
	want := []Run{saved[2], saved[1], saved[0]}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Runs =\n%+v\nwant\n%+v", got, want)
	}
	got, _ = s.Runs(ctx, 2)
	if len(got) != 2 || got[0].ID != saved[2].ID {
		t.Fatalf("Runs(2) = %+v", got)
	}
}

func TestEmbeddings(t *testing.T) {
	ctx := context.Background()
	s := newStore(t)
	_, err := s.Embedding(ctx, "m", "hello")
	isKind(t, err, ErrNotFound)
	v := []float32{0.5, -1.25, 3e-7, math.MaxFloat32, 0}
	isKind(t, s.PutEmbedding(ctx, "m", "hello", v), nil)
	got, err := s.Embedding(ctx, "m", "hello")
	if err != nil || !reflect.DeepEqual(got, v) {
		t.Fatalf("Embedding = %v, %v", got, err)
	}
	_, err = s.Embedding(ctx, "other-model", "hello")
	isKind(t, err, ErrNotFound)
	_, err = s.Embedding(ctx, "m", "hello ")
	isKind(t, err, ErrNotFound)
	// replace
	v2 := []float32{1, 2}
	isKind(t, s.PutEmbedding(ctx, "m", "hello", v2), nil)
	if got, _ := s.Embedding(ctx, "m", "hello"); !reflect.DeepEqual(got, v2) {
		t.Fatalf("replaced embedding %v", got)
	}
	// stored little-endian float32
	var blob []byte
	if err := s.rdb.QueryRow(`SELECT vector FROM embeddings WHERE model = 'm'`).Scan(&blob); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(blob, []byte{0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}) {
		t.Fatalf("blob % x", blob)
	}
	bad := []struct {
		model string
		v     []float32
	}{
		{"", v},
		{"m", nil},
		{"m", []float32{1, float32(math.NaN())}},
		{"m", []float32{float32(math.Inf(-1))}},
	}
	for _, b := range bad {
		isKind(t, s.PutEmbedding(ctx, b.model, "t", b.v), ErrInvalid)
	}
	// a batch: all or nothing
	isKind(t, s.PutEmbeddings(ctx, "m", []string{"a", "b"}, [][]float32{{1}, {2, 3}}), nil)
	for text, want := range map[string][]float32{"a": {1}, "b": {2, 3}} {
		if got, err := s.Embedding(ctx, "m", text); err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("batch Embedding(%q) = %v, %v", text, got, err)
		}
	}
	isKind(t, s.PutEmbeddings(ctx, "m", []string{"c", "d"}, [][]float32{{1}, nil}), ErrInvalid)
	isKind(t, s.PutEmbeddings(ctx, "m", []string{"c"}, nil), ErrInvalid)
	_, err = s.Embedding(ctx, "m", "c")
	isKind(t, err, ErrNotFound)
}
