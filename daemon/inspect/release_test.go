//go:build wayfinder_release

package inspect_test

import (
	"errors"
	"testing"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
)

// In release builds the server is left out: New refuses.
func TestReleaseBuildHasNoServer(t *testing.T) {
	s, err := inspect.New(nil, event.NewBus(), inspect.Options{Token: "0123456789abcdef0123"})
	if !errors.Is(err, inspect.ErrNotBuilt) || s != nil {
		t.Fatalf("New: %v, %v; want ErrNotBuilt", s, err)
	}
}
