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
