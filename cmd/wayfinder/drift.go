package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"

	"github.com/wayfinder-agent/wayfinder/daemon/drift"
)

// cmdDrift writes an "updated app" copy of a DroidTask-format directory
// (daemon/drift).
func cmdDrift(ctx context.Context, args []string) error {
	fs := newFlags("drift")
	data := fs.String("data", "", "DroidTask-format directory to read")
	out := fs.String("out", "", "directory to write (new or empty)")
	kinds := fs.String("kinds", "all", "comma-separated kinds: text, rename-id, bounds, wrap, shuffle, deeper, interstitial (or all)")
	strength := fs.String("strength", "moderate", "low, moderate, high or a number in (0, 1]")
	seed := fs.Uint64("seed", 1, "random seed: the same seed gives the same output")
	wordnet := fs.String("wordnet", drift.DefaultWordNet, "WordNet 3.0 database directory (Debian: wordnet-base) for the text kind's synonyms")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *data == "" || *out == "" {
		return usageError{"drift: --data and --out are required"}
	}
	ks, err := drift.ParseKinds(*kinds)
	if err != nil {
		return usageError{err.Error()}
	}
	s, err := drift.ParseStrength(*strength)
	if err != nil {
		return usageError{err.Error()}
	}
	cfg := drift.Config{Kinds: ks, Strength: s, Seed: *seed}
	if slices.Contains(ks, drift.Text) {
		wn, err := drift.LoadWordNet(*wordnet)
		if err != nil {
			return fmt.Errorf("%w (the text kind needs WordNet: install wordnet-base, as scripts/setup.sh does, or pass --wordnet DIR)", err)
		}
		cfg.Synonyms = wn
	}
	sum, err := drift.Generate(*data, *out, cfg)
	if err != nil {
		return err
	}
	b, _ := json.Marshal(sum)
	fmt.Fprintf(os.Stdout, "%s\n", b)
	return ctx.Err()
}
