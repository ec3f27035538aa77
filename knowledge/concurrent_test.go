package knowledge

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
)

// TestConcurrentUse: goroutines of two stores on one file (two handles, as
// two processes would have) write and read at once; every write lands and
// every read sees whole flows.
func TestConcurrentUse(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "k.db")
	var stores []*Store
	for i := 0; i < 2; i++ {
		s, err := Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		stores = append(stores, s)
	}
	const writers, perWriter = 4, 25
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := stores[w%2]
			for i := 0; i < perWriter; i++ {
				f := sampleFlow(fmt.Sprintf("com.example.app%d", i%3), fmt.Sprintf("w%d-%d", w, i), 1+i%5, i%3)
				if err := s.SaveFlow(ctx, &f); err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
				if err := s.RecordFlowUse(ctx, f.ID, i%2 == 0); err != nil {
					errs <- err
					return
				}
			}
		}(w)
	}
	for r := 0; r < 2; r++ {
		wg.Add(1)
		go func(r int) {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				fs, err := stores[r].Flows(ctx, FlowFilter{})
				if err != nil {
					errs <- fmt.Errorf("reader %d: %w", r, err)
					return
				}
				for _, f := range fs {
					var w, n int
					fmt.Sscanf(f.Name, "w%d-%d", &w, &n)
					if len(f.Steps) != 1+n%5 || len(f.Slots) != n%3 {
						errs <- fmt.Errorf("reader %d saw a partial flow %q: %d steps", r, f.Name, len(f.Steps))
						return
					}
				}
			}
		}(r)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	fs, err := stores[0].Flows(ctx, FlowFilter{})
	if err != nil || len(fs) != writers*perWriter {
		t.Fatalf("%d flows, %v; want %d", len(fs), err, writers*perWriter)
	}
	for _, f := range fs {
		if f.Uses != 1 {
			t.Fatalf("flow %q uses %d", f.Name, f.Uses)
		}
	}
}
