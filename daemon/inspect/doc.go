// Package inspect owns Wayfinder's debugging websocket and the live
// inspector page: a local HTTP server (loopback only, token required) that
// streams the agent's progress events (package daemon/event) to browser
// clients, one JSON event per websocket text message, and accepts a few
// commands (run, replay, cancel, answer, snapshot, flows, graph,
// flow_history, rollback) that it hands to a Controller implemented by the
// daemon. A run's question (an "ask" event: "is this done?", a sensitive
// step to allow) is shown on the page with a button per option; the
// button's "answer" reaches the run through an Answerer Controller.
//
// The package must not touch the device, the knowledge store or the LLM
// directly: everything goes through Controller and the event Bus. It never
// sends settings, API keys or password text: events are redacted before
// they reach the Bus, flows are sent as FlowView (literal input text
// omitted) and the graph as GraphView.
//
// # Page and assets
//
// GET / is the inspector page (inspector.html, embedded). Its UI
// transition graph is drawn by Cytoscape.js with the dagre layered layout
// (zoom and pan, a click on a screen shows it, the shown run's path
// highlighted), served from GET /assets/NAME: minified builds vendored
// from npm at pinned versions with their licences (daemon/inspect/assets,
// written by scripts/vendor-inspector-libs.sh, which checks each
// tarball's integrity; assets/SHA256SUMS lists them, and a test compares
// what is served with it). They are committed so that building needs
// neither npm nor the network.
//
// # Wire protocol (GET /ws)
//
// Authentication: the per-install token (LoadOrCreateToken) as the query
// parameter ?token= or the header "Authorization: Bearer <token>",
// compared in constant time; otherwise 401. The Host header must name a
// loopback host (127.0.0.1, ::1, localhost) and a browser's Origin must be
// the server's own origin or the same port on another loopback name;
// otherwise 403 (this also defeats DNS rebinding).
//
// Server to client, in order, each a text message holding one JSON object:
//
//   - first {"type":"hello","data":Hello}: the current screen (if the
//     Controller has one), the saved flows and the events of the latest run
//     (Hello.Recent), so a page opened mid-run is not empty;
//   - then every event.Event published on the Bus after the client
//     connected, in Seq order: {"seq","time_ms","run_id","type","data"};
//   - {"type":"reply","id":..,"result":..} or {"type":"reply","id":..,
//     "error":".."} for each command. "hello" and "reply" are not event
//     types, so the two are told apart by "type".
//
// A client that falls more than Options.ClientBuffer events behind is
// dropped by the Bus without slowing the agent: it receives the "dropped"
// event and the connection is closed with status 1013 (try again later)
// and a reason; a client whose socket stops draining is closed after
// Options.WriteTimeout. Both are logged.
//
// Client to server: {"id":"1","method":"run","params":{"command":".."}};
// methods and params are listed at Request.
//
// # Release builds
//
// The server, its page and its tests are compiled only without the build
// tag wayfinder_release (files marked //go:build !wayfinder_release).
// Built with -tags wayfinder_release (the release AAR), New returns
// ErrNotBuilt and the page is not embedded; the exported API is the same so
// callers compile unchanged.
//
// # Files
//
// server.go (the HTTP server, its host, token and origin checks, the page,
// assets and request/response API), socket.go (the websocket clients:
// hello, event stream, commands), history.go (the events of recent runs a
// new client is sent), api.go (wire types), release.go (the stub built
// with the wayfinder_release tag: no inspector in a release build).
package inspect
