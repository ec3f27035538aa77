// Command e2eserver serves the inspector on a loopback port with the
// scripted demo controller (daemon/sim/demo/scripted), for the browser end-to-end test
// scripts/e2e-inspector.sh. Its first stdout line is the page URL with the
// token; it serves until SIGINT or SIGTERM.
//
//	go run ./daemon/inspect/internal/e2eserver -addr 127.0.0.1:0 -delay 120ms
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/inspect"
	"github.com/wayfinder-agent/wayfinder/daemon/sim/demo/scripted"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback host:port to listen on (port 0: any free port)")
	delay := flag.Duration("delay", 120*time.Millisecond, "pause between two events of a scripted run")
	dataDir := flag.String("data", "", "directory holding inspector.token (default: a fresh random token, not stored)")
	flag.Parse()
	log.SetFlags(log.Ltime | log.Lmicroseconds)
	log.SetOutput(os.Stderr)
	if err := run(*addr, *delay, *dataDir); err != nil {
		fmt.Fprintln(os.Stderr, "e2eserver:", err)
		os.Exit(1)
	}
}

func run(addr string, delay time.Duration, dataDir string) error {
	var token string
	if dataDir != "" {
		t, err := inspect.LoadOrCreateToken(dataDir)
		if err != nil {
			return err
		}
		token = t
	} else {
		var b [32]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		token = hex.EncodeToString(b[:])
	}
	bus := event.NewBus()
	ctrl, err := scripted.New(bus, delay)
	if err != nil {
		return err
	}
	srv, err := inspect.New(ctrl, bus, inspect.Options{Addr: addr, Token: token, Logf: log.Printf})
	if err != nil {
		return err
	}
	ln, err := srv.Listen()
	if err != nil {
		return err
	}
	fmt.Println(srv.URL())
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return srv.Serve(ctx, ln)
}
