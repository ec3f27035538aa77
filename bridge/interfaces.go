// Package bridge is the only package bound with gomobile (gobind) into the
// Android AAR. Its whole API is this file: one constructor, the Daemon
// object with one JSON call method and an event subscription, and the two
// interfaces Kotlin implements (Device, EventListener). Only string, []byte,
// bool, int and error cross the boundary; every entry point recovers from
// panics and returns them as errors. Everything else lives in pure Go
// packages that are tested on the host.
package bridge

// Device is implemented in Kotlin by the AccessibilityService. Each method
// returns JSON in the shapes of docs/screen-schema.md and docs/bridge-api.md,
// or throws (a Go error on this side).
type Device interface {
	// Snapshot returns every window's tree as snapshot JSON, after the UI
	// settled.
	Snapshot() (string, error)
	// Perform carries out an action (JSON) and returns its result (JSON)
	// once the action completed.
	Perform(actionJSON string) (string, error)
	// InstalledApps returns a JSON array of {"package","label"}.
	InstalledApps() (string, error)
}

// EventListener receives progress events as JSON, one call per event, in
// order, on a Go-owned thread.
type EventListener interface {
	OnEvent(eventJSON string)
}

// Daemon is the agent running inside the app. All methods are safe for
// concurrent use.
type Daemon struct {
	impl *daemonImpl
}

// New starts a daemon that keeps its knowledge store in dataDir, reads its
// settings from configJSON (docs/bridge-api.md; "" for defaults) and
// operates device.
func New(dataDir, configJSON string, device Device) (d *Daemon, err error) {
	defer recoverErr("New", &err)
	impl, err := newDaemonImpl(dataDir, configJSON, device)
	if err != nil {
		return nil, err
	}
	return &Daemon{impl: impl}, nil
}

// Call runs one request, {"method": "...", "params": {...}}, and returns
// its JSON result. Methods: run, replay, cancel, answer, flows.list,
// flows.get, flows.rename, flows.delete, settings.get, settings.set,
// status (docs/bridge-api.md). "run" and "replay" return once the command
// finished; progress arrives through Subscribe.
func (d *Daemon) Call(requestJSON string) (result string, err error) {
	defer recoverErr("Call", &err)
	return d.impl.call(requestJSON)
}

// Subscribe delivers every progress event to l until Close; a second call
// replaces the listener, nil removes it.
func (d *Daemon) Subscribe(l EventListener) {
	defer recoverErr("Subscribe", nil)
	d.impl.subscribe(l)
}

// Close cancels any running command and closes the knowledge store.
func (d *Daemon) Close() (err error) {
	defer recoverErr("Close", &err)
	return d.impl.close()
}

// RecoverStore moves a damaged knowledge store of dataDir aside (New then
// fails with an error containing "damaged"), saves the flows it can still
// read as a flows export beside it, and returns JSON
// {"moved_to","flows_export","flows","salvage_error"}; the next New starts
// a fresh store. Import the export with the "flows.import" path of the
// app, or `wayfinder flows import` on a workstation.
func RecoverStore(dataDir string) (resultJSON string, err error) {
	defer recoverErr("RecoverStore", &err)
	return recoverStore(dataDir)
}
