//go:build wayfinder_release

package inspect

import (
	"context"
	"net"
	"net/http"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
)

// Server is absent from release builds: New returns ErrNotBuilt and the
// methods do nothing.
type Server struct{}

// New returns ErrNotBuilt: the inspector is not built into release builds
// (build tag wayfinder_release).
func New(ctrl Controller, bus *event.Bus, opts Options) (*Server, error) { return nil, ErrNotBuilt }

// URL returns "".
func (s *Server) URL() string { return "" }

// Listen returns ErrNotBuilt.
func (s *Server) Listen() (net.Listener, error) { return nil, ErrNotBuilt }

// Serve returns ErrNotBuilt.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error { return ErrNotBuilt }

// ListenAndServe returns ErrNotBuilt.
func (s *Server) ListenAndServe(ctx context.Context) error { return ErrNotBuilt }

// Handler returns a handler answering 404 to everything.
func (s *Server) Handler() http.Handler { return http.NotFoundHandler() }

// Close does nothing.
func (s *Server) Close() error { return nil }
