package inspect

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/wayfinder-agent/wayfinder/daemon/event"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
	"github.com/wayfinder-agent/wayfinder/knowledge"
)

// Controller is what the inspector asks the daemon to do. The daemon
// implements it; every method must be safe for concurrent use. ctx bounds
// the call only, never a run it starts.
type Controller interface {
	// Run starts command asynchronously and returns its run ID at once;
	// its progress goes to the Bus.
	Run(ctx context.Context, command string) (runID string, err error)
	// Replay starts the saved flow flowID with the given slot values,
	// asynchronously, and returns the run ID.
	Replay(ctx context.Context, flowID int64, slots map[string]string) (runID string, err error)
	// Cancel stops a run; the run still ends with a run_finished event.
	Cancel(runID string) error
	// Snapshot returns the current screen, or (nil, nil) when there is
	// none yet. During a run it should return the last capture rather than
	// capture again.
	Snapshot(ctx context.Context) (*screen.Snapshot, error)
	// Flows lists the saved flows.
	Flows(ctx context.Context) ([]knowledge.Flow, error)
	// Graph returns the UI transition graph of the current app, or
	// (nil, nil) when no app is current.
	Graph(ctx context.Context) (*knowledge.Graph, error)
}

// Answerer is a Controller whose runs can be answered: the owner's reply
// to the question of the last "ask" event ("is this done?", "did you
// mean …?", a sensitive step to allow). Answer returns an error when no
// question is waiting.
type Answerer interface {
	Answer(text string) error
}

// MaxAnswerLen bounds an answer's text, bytes.
const MaxAnswerLen = 1024

// StepsController is a Controller that can also follow steps pasted from
// a tutorial (daemon/steps): a run request with "steps" needs one.
type StepsController interface {
	RunSteps(ctx context.Context, goal, steps string) (runID string, err error)
}

// FlowVersions is optionally implemented by a Controller whose flows keep
// versions (knowledge.FlowVersion): the inspector then shows a flow's
// history and can roll it back.
type FlowVersions interface {
	// FlowHistory lists the versions of flow id, oldest first.
	FlowHistory(ctx context.Context, id int64) ([]knowledge.FlowVersion, error)
	// RollbackFlow makes version's steps current again, as a new version.
	RollbackFlow(ctx context.Context, id int64, version int) error
}

// Defaults of Options.
const (
	DefaultAddr         = "127.0.0.1:7777"
	DefaultClientBuffer = 256
	DefaultWriteTimeout = 10 * time.Second
	// MinTokenLen is the shortest accepted token, in characters.
	MinTokenLen = 16
	// MaxRequestBytes bounds one client message.
	MaxRequestBytes = 64 << 10
	// MaxCommandLen bounds the command text of a run request, in bytes.
	MaxCommandLen = 4096
	// MaxStepsLen bounds the pasted steps of a run request, in bytes.
	MaxStepsLen = 32 << 10
)

// Options configure a Server.
type Options struct {
	// Addr is the loopback host:port to listen on (default DefaultAddr;
	// port 0 picks a free port). Non-loopback addresses are refused.
	Addr string
	// Token authenticates clients (required, at least MinTokenLen
	// characters); use LoadOrCreateToken.
	Token string
	// ClientBuffer is each websocket client's Bus buffer, in events
	// (default DefaultClientBuffer). A client further behind is dropped.
	ClientBuffer int
	// WriteTimeout bounds one websocket write (default
	// DefaultWriteTimeout); a client whose socket does not drain in time
	// is disconnected.
	WriteTimeout time.Duration
	// Logf receives one line per notable event (client connected, dropped,
	// refused). Default: log.Printf.
	Logf func(format string, args ...any)
}

// ErrNotBuilt is returned by New in builds with the wayfinder_release tag.
var ErrNotBuilt = errors.New("inspector not built into release builds")

// TokenFile is the token's file name inside the data directory.
const TokenFile = "inspector.token"

// LoadOrCreateToken returns the inspector token of this install, stored in
// dataDir/inspector.token (64 hex characters: 32 random bytes), creating
// the directory (0700) and the file (0600) on first use. A file with wider
// permissions is narrowed to 0600. A file that does not hold a valid token
// is an error and is left untouched (delete it to get a new token).
func LoadOrCreateToken(dataDir string) (string, error) {
	if dataDir == "" {
		return "", errors.New("inspect: token: empty data directory")
	}
	path := filepath.Join(dataDir, TokenFile)
	if tok, err := readToken(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, err
	}
	if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("inspect: token: random: %w", err)
	}
	tok := hex.EncodeToString(b[:])
	// Write a temporary file, then link it into place: the link fails if
	// another process created the token first, and readers never see a
	// half-written file.
	tmp, err := os.CreateTemp(dataDir, ".inspector.token-*")
	if err != nil {
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	defer os.Remove(tmp.Name())
	if err := tmp.Chmod(0o600); err != nil {
		tmp.Close()
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	if _, err := tmp.WriteString(tok + "\n"); err != nil {
		tmp.Close()
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return readToken(path)
		}
		return "", fmt.Errorf("inspect: token: %w", err)
	}
	return tok, nil
}

func readToken(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	tok := string(bytes.TrimSpace(b))
	if len(tok) != 64 {
		return "", fmt.Errorf("inspect: token file %s: want 64 hex characters, got %d characters (delete the file to create a new token)", path, len(tok))
	}
	if _, err := hex.DecodeString(tok); err != nil {
		return "", fmt.Errorf("inspect: token file %s: not hex (delete the file to create a new token)", path)
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return "", fmt.Errorf("inspect: token file %s: narrowing permissions: %w", path, err)
		}
	}
	return tok, nil
}

// checkAddr accepts host:port where host is a loopback IP or "localhost".
func checkAddr(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("inspect: address %q: %w", addr, err)
	}
	if port == "" {
		return fmt.Errorf("inspect: address %q: no port", addr)
	}
	if !isLoopbackHost(host) {
		return fmt.Errorf("inspect: address %q is not a loopback address: the inspector listens on 127.0.0.1, ::1 or localhost only", addr)
	}
	return nil
}

func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Methods a client may call.
const (
	MethodRun      = "run"          // params {"command": string} -> {"run_id": string}
	MethodReplay   = "replay"       // params {"flow_id": int, "slots": {name: value}} -> {"run_id": string}
	MethodCancel   = "cancel"       // params {"run_id": string} -> {"ok": true}
	MethodAnswer   = "answer"       // params {"text": string} -> {"ok": true}: the owner's answer to the run's question (an "ask" event)
	MethodSnapshot = "snapshot"     // -> event.ScreenInfo, or null when there is no screen
	MethodFlows    = "flows"        // -> []FlowView
	MethodGraph    = "graph"        // -> GraphView, or null when no app is current
	MethodHistory  = "flow_history" // params {"flow_id": int} -> []VersionView, oldest first
	MethodRollback = "rollback"     // params {"flow_id": int, "version": int} -> {"ok": true}
)

// Request is a command from a client. ID is echoed in the reply (any
// string up to 64 bytes; empty is allowed).
type Request struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
	// decoded params
	Command string            `json:"-"`
	Steps   string            `json:"-"` // run: pasted steps to follow toward Command
	FlowID  int64             `json:"-"`
	Version int               `json:"-"`
	Slots   map[string]string `json:"-"`
	RunID   string            `json:"-"`
	Text    string            `json:"-"` // answer: the owner's reply
}

// Reply answers a Request. Type is always "reply"; exactly one of Result
// and Error is set.
type Reply struct {
	Type   string `json:"type"`
	ID     string `json:"id"`
	Result any    `json:"result,omitempty"`
	Error  string `json:"error,omitempty"`
}

// ParseRequest decodes and validates one client message. The returned
// Request carries the ID even when err is not nil, when the ID could be
// read, so the error can be answered.
func ParseRequest(b []byte) (Request, error) {
	var r Request
	if len(b) > MaxRequestBytes {
		return r, fmt.Errorf("request of %d bytes exceeds %d", len(b), MaxRequestBytes)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Request{}, fmt.Errorf("request: %w", err)
	}
	if dec.More() {
		return Request{}, errors.New("request: trailing data")
	}
	if len(r.ID) > 64 || !utf8.ValidString(r.ID) {
		return Request{}, errors.New("request: id longer than 64 bytes or not UTF-8")
	}
	params := r.Params
	if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
		params = []byte("{}")
	}
	decode := func(v any) error {
		d := json.NewDecoder(bytes.NewReader(params))
		d.DisallowUnknownFields()
		if err := d.Decode(v); err != nil {
			return fmt.Errorf("%s params: %w", r.Method, err)
		}
		return nil
	}
	switch r.Method {
	case MethodRun:
		var p struct {
			Command string `json:"command"`
			Steps   string `json:"steps,omitempty"`
		}
		if err := decode(&p); err != nil {
			return r, err
		}
		if len(p.Steps) > MaxStepsLen || !utf8.ValidString(p.Steps) {
			return r, fmt.Errorf("run: steps longer than %d bytes or not UTF-8", MaxStepsLen)
		}
		r.Steps = strings.TrimSpace(p.Steps)
		p.Command = strings.TrimSpace(p.Command)
		switch {
		case p.Command == "":
			return r, errors.New("run: empty command")
		case len(p.Command) > MaxCommandLen:
			return r, fmt.Errorf("run: command of %d bytes exceeds %d", len(p.Command), MaxCommandLen)
		case !utf8.ValidString(p.Command):
			return r, errors.New("run: command is not UTF-8")
		}
		r.Command = p.Command
	case MethodReplay:
		var p struct {
			FlowID int64             `json:"flow_id"`
			Slots  map[string]string `json:"slots"`
		}
		if err := decode(&p); err != nil {
			return r, err
		}
		if p.FlowID <= 0 {
			return r, fmt.Errorf("replay: flow_id %d: want a positive flow id", p.FlowID)
		}
		if len(p.Slots) > 64 {
			return r, fmt.Errorf("replay: %d slots exceed 64", len(p.Slots))
		}
		r.FlowID, r.Slots = p.FlowID, p.Slots
	case MethodHistory, MethodRollback:
		var p struct {
			FlowID  int64 `json:"flow_id"`
			Version int   `json:"version"`
		}
		if err := decode(&p); err != nil {
			return r, err
		}
		if p.FlowID <= 0 {
			return r, fmt.Errorf("%s: flow_id %d: want a positive flow id", r.Method, p.FlowID)
		}
		if r.Method == MethodRollback && p.Version <= 0 {
			return r, fmt.Errorf("rollback: version %d: want a positive version", p.Version)
		}
		r.FlowID, r.Version = p.FlowID, p.Version
	case MethodCancel:
		var p struct {
			RunID string `json:"run_id"`
		}
		if err := decode(&p); err != nil {
			return r, err
		}
		if p.RunID == "" || len(p.RunID) > 128 {
			return r, errors.New("cancel: run_id empty or longer than 128 bytes")
		}
		r.RunID = p.RunID
	case MethodAnswer:
		var p struct {
			Text string `json:"text"`
		}
		if err := decode(&p); err != nil {
			return r, err
		}
		p.Text = strings.TrimSpace(p.Text)
		if p.Text == "" || len(p.Text) > MaxAnswerLen || !utf8.ValidString(p.Text) {
			return r, fmt.Errorf("answer: text empty, longer than %d bytes or not UTF-8", MaxAnswerLen)
		}
		r.Text = p.Text
	case MethodSnapshot, MethodFlows, MethodGraph:
		var p struct{}
		if err := decode(&p); err != nil {
			return r, err
		}
	default:
		return r, fmt.Errorf("unknown method %q (want run, replay, cancel, answer, snapshot, flows, graph, flow_history or rollback)", r.Method)
	}
	return r, nil
}

// Hello is the first message on a connection (type "hello").
type Hello struct {
	Protocol int `json:"protocol"` // 1
	// Seq is the Bus sequence number of the last event in Recent (0 when
	// empty); events that follow have larger Seq.
	Seq int64 `json:"seq"`
	// Screen is the current screen, or nil.
	Screen *event.ScreenInfo `json:"screen"`
	Flows  []FlowView        `json:"flows"`
	// Recent holds the events of the latest run (from its run_started),
	// at most a few hundred, oldest first.
	Recent       []event.Event `json:"recent"`
	ClientBuffer int           `json:"client_buffer"`
	// Errors lists what could not be loaded (snapshot, flows), if anything.
	Errors []string `json:"errors,omitempty"`
}

// ScreenInfoOf describes snapshot s the way snapshot events do: its
// elements (screen.Elements) with kinds, labels and px bounds, its
// fingerprint and its size in px. step is copied into the result.
func ScreenInfoOf(s *screen.Snapshot, step int) event.ScreenInfo {
	if s == nil {
		return event.ScreenInfo{Step: step, Elements: []event.ScreenElement{}}
	}
	els := screen.Elements(s)
	info := event.ScreenInfo{Step: step, Fingerprint: screen.Fingerprint(s), Activity: s.Activity,
		Package: s.ForegroundPackage(), Width: s.Width, Height: s.Height, Elements: make([]event.ScreenElement, len(els))}
	for i, e := range els {
		info.Elements[i] = event.ScreenElement{Index: e.Index, Kind: e.Kind, Label: e.Label, Bounds: [4]int(e.Bounds)}
	}
	return info
}

// FlowView is a saved flow as the inspector shows it. Literal input text of
// steps is left out (it may be personal); slot references are kept.
type FlowView struct {
	ID        int64            `json:"id"`
	Package   string           `json:"package"`
	Name      string           `json:"name"`
	Intent    string           `json:"intent"`
	Slots     []knowledge.Slot `json:"slots,omitempty"`
	Steps     []StepView       `json:"steps"`
	Source    string           `json:"source"`
	Uses      int              `json:"uses"`
	Successes int              `json:"successes"`
	Failures  int              `json:"failures"`
	Pinned    bool             `json:"pinned,omitempty"`
	UpdatedMS int64            `json:"updated_ms,omitempty"` // ms since the Unix epoch
	// Sensitive: a step deletes, sends, pays, calls or changes an account
	// (replay asks first unless AllowSensitive).
	Sensitive      bool `json:"sensitive,omitempty"`
	AllowSensitive bool `json:"allow_sensitive,omitempty"`
	// Version is the current version's number; Healthy is false after
	// knowledge.UnhealthyAfter failures in a row (FailStreak): the flow
	// then acts only when the owner replays it by name.
	Version    int  `json:"version"`
	Healthy    bool `json:"healthy"`
	FailStreak int  `json:"fail_streak,omitempty"`
}

// VersionView is one version of a flow as the inspector shows it.
type VersionView struct {
	Version   int        `json:"version"`
	Reason    string     `json:"reason"`
	CreatedMS int64      `json:"created_ms"`
	Current   bool       `json:"current"`
	Steps     []StepView `json:"steps"`
}

// VersionViewOf converts a flow version for the inspector.
func VersionViewOf(v knowledge.FlowVersion) VersionView {
	return VersionView{Version: v.Version, Reason: v.Reason, CreatedMS: v.Created.UnixMilli(), Current: v.Current, Steps: stepViews(v.Steps)}
}

// StepView is one step of a FlowView.
type StepView struct {
	Index   int    `json:"index"`
	Action  string `json:"action"`
	Label   string `json:"label,omitempty"` // the target element's label
	Slot    string `json:"slot,omitempty"`  // "{name}" when the step types a slot value
	Comment string `json:"comment,omitempty"`
	// Sensitive: this step deletes, sends, pays, calls or changes an account.
	Sensitive bool `json:"sensitive,omitempty"`
}

// FlowViewOf converts a flow for the inspector.
func FlowViewOf(f knowledge.Flow) FlowView {
	v := FlowView{ID: f.ID, Package: f.Package, Name: f.Name, Intent: f.Intent, Slots: f.Slots, Source: f.Source,
		Uses: f.Uses, Successes: f.Successes, Failures: f.Failures, Pinned: f.Pinned, Steps: stepViews(f.Steps),
		Sensitive: f.Sensitive, AllowSensitive: f.AllowSensitive, Version: f.Version, Healthy: f.Healthy(), FailStreak: f.FailStreak}
	if !f.Updated.IsZero() {
		v.UpdatedMS = f.Updated.UnixMilli()
	}
	return v
}

// stepViews converts flow steps, leaving literal input text out.
func stepViews(steps []knowledge.Step) []StepView {
	out := make([]StepView, len(steps))
	for i, s := range steps {
		sv := StepView{Index: s.Index, Action: s.Action, Label: s.Target.Label(), Comment: s.Comment, Sensitive: s.Sensitive}
		if t := strings.TrimSpace(s.Text); strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && !strings.ContainsAny(t[1:len(t)-1], "{} ") {
			sv.Slot = t
		}
		out[i] = sv
	}
	return out
}

// GraphView is a UI transition graph as the inspector draws it.
type GraphView struct {
	App     knowledge.App `json:"app"`
	Screens []GraphScreen `json:"screens"`
	Edges   []GraphEdge   `json:"edges"`
}

// GraphScreen is a node of GraphView. Elements are the labels of the
// elements known on the screen (at most maxScreenLabels, in store order),
// shown when the screen is clicked in the inspector.
type GraphScreen struct {
	ID          int64    `json:"id"`
	Fingerprint string   `json:"fingerprint"`
	Activity    string   `json:"activity,omitempty"`
	Description string   `json:"description,omitempty"`
	Dialog      bool     `json:"dialog,omitempty"`
	Visits      int      `json:"visits"`
	Elements    []string `json:"elements,omitempty"`
}

// maxScreenLabels bounds GraphScreen.Elements.
const maxScreenLabels = 40

// GraphEdge is a transition of GraphView; Label is the element's label.
type GraphEdge struct {
	From     int64  `json:"from"`
	To       int64  `json:"to"`
	Action   string `json:"action"`
	Label    string `json:"label,omitempty"`
	Count    int    `json:"count"`
	Failures int    `json:"failures"`
	Source   string `json:"source,omitempty"`
}

// GraphViewOf converts a graph for the inspector (nil gives nil).
func GraphViewOf(g *knowledge.Graph) *GraphView {
	if g == nil {
		return nil
	}
	v := &GraphView{App: g.App, Screens: make([]GraphScreen, len(g.Screens)), Edges: make([]GraphEdge, len(g.Transitions))}
	index := make(map[int64]int, len(g.Screens))
	for i, s := range g.Screens {
		v.Screens[i] = GraphScreen{ID: s.ID, Fingerprint: s.Fingerprint, Activity: s.Activity, Description: s.Description, Dialog: s.Dialog, Visits: s.Visits}
		index[s.ID] = i
	}
	labels := make(map[int64]string, len(g.Elements))
	seen := map[int64]map[string]bool{}
	for _, e := range g.Elements {
		l := firstNonEmpty(e.Label, e.Descriptor.Label())
		labels[e.ID] = l
		i, ok := index[e.ScreenID]
		if !ok || l == "" || seen[e.ScreenID][l] || len(v.Screens[i].Elements) >= maxScreenLabels {
			continue
		}
		if seen[e.ScreenID] == nil {
			seen[e.ScreenID] = map[string]bool{}
		}
		seen[e.ScreenID][l] = true
		v.Screens[i].Elements = append(v.Screens[i].Elements, l)
	}
	for i, t := range g.Transitions {
		v.Edges[i] = GraphEdge{From: t.From, To: t.To, Action: t.Action, Label: labels[t.ElementID], Count: t.Count, Failures: t.Failures, Source: t.Source}
	}
	return v
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
