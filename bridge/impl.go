package bridge

import (
	"errors"
	"fmt"
	"log"
	"runtime/debug"
)

// recoverErr turns a panic in an exported entry point into an error (when
// errp is non-nil) and logs it with its stack, so no panic crosses the
// gomobile boundary.
func recoverErr(op string, errp *error) {
	r := recover()
	if r == nil {
		return
	}
	log.Printf("wayfinder bridge: panic in %s: %v\n%s", op, r, debug.Stack())
	if errp != nil {
		*errp = fmt.Errorf("wayfinder: internal error in %s: %v", op, r)
	}
}

type daemonImpl struct{}

func newDaemonImpl(dataDir, configJSON string, device Device) (*daemonImpl, error) {
	return nil, errors.New("bridge: daemon not wired yet")
}

func (d *daemonImpl) call(req string) (string, error) { return "", errors.New("not wired") }
func (d *daemonImpl) subscribe(l EventListener)       {}
func (d *daemonImpl) close() error                    { return nil }
