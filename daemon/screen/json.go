package screen

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// wireSnapshot is the snapshot JSON of docs/screen-schema.md: the shape the
// Android service emits and the debugging websocket streams.
type wireSnapshot struct {
	Schema   int          `json:"schema"`
	Width    int          `json:"width"`
	Height   int          `json:"height"`
	Activity string       `json:"activity,omitempty"`
	Package  string       `json:"package,omitempty"`
	Capture  string       `json:"capture_id,omitempty"`
	Windows  []wireWindow `json:"windows"`
}

type wireWindow struct {
	Window
	Nodes []wireNode `json:"nodes"`
}

// wireNode is a Node whose parent is required: a pointer tells an absent
// "parent" (an error) from a root's -1 or the first node's 0.
type wireNode struct {
	Node
	Parent *int `json:"parent"`
}

// MarshalJSON writes the snapshot JSON of docs/screen-schema.md.
func (s *Snapshot) MarshalJSON() ([]byte, error) {
	w := wireSnapshot{Schema: SchemaVersion, Width: s.Width, Height: s.Height, Activity: s.Activity, Package: s.Package, Capture: s.CaptureID}
	w.Windows = make([]wireWindow, len(s.Windows))
	for i, win := range s.Windows {
		w.Windows[i].Window = win
		w.Windows[i].Nodes = []wireNode{}
	}
	for _, n := range s.Nodes {
		if n.Window >= 0 && n.Window < len(w.Windows) {
			w.Windows[n.Window].Nodes = append(w.Windows[n.Window].Nodes, wireNode{Node: n, Parent: &n.Parent})
		}
	}
	return json.Marshal(w)
}

// UnmarshalJSON parses the snapshot JSON; see ParseJSON.
func (s *Snapshot) UnmarshalJSON(b []byte) error {
	snap, err := ParseJSON(b)
	if err != nil {
		return err
	}
	*s = *snap
	return nil
}

// ParseJSON parses a snapshot in the Wayfinder snapshot JSON
// (docs/screen-schema.md). Node ids must be unique across the snapshot and
// parents must precede children; ids are renumbered densely in document
// order. Errors are *FieldError naming the JSON path or byte offset.
func ParseJSON(b []byte) (*Snapshot, error) {
	var w wireSnapshot
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&w); err != nil {
		return nil, jsonErr("snapshot", err, dec)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fieldErr("snapshot", fmt.Sprintf("offset %d", dec.InputOffset()), "trailing data after the snapshot")
	}
	if w.Schema != 0 && w.Schema != SchemaVersion {
		return nil, fieldErr("snapshot", "schema", "unsupported version %d (want %d)", w.Schema, SchemaVersion)
	}
	if w.Width < 0 || w.Height < 0 {
		return nil, fieldErr("snapshot", "width", "negative screen size %dx%d", w.Width, w.Height)
	}
	s := &Snapshot{Width: w.Width, Height: w.Height, Activity: w.Activity, Package: w.Package, Source: "device", CaptureID: w.Capture}
	remap := map[int]int{}
	total := 0
	for wi, win := range w.Windows {
		total += len(win.Nodes)
		if total > MaxNodes {
			return nil, fieldErr("snapshot", fmt.Sprintf("windows[%d].nodes", wi), "more than %d nodes", MaxNodes)
		}
		if win.Type == "" {
			win.Type = WindowUnknown
		}
		if !windowTypes[win.Type] {
			return nil, fieldErr("snapshot", fmt.Sprintf("windows[%d].type", wi), "unknown window type %q", win.Type)
		}
		s.Windows = append(s.Windows, win.Window)
		hasRoot := false
		for ni, wn := range win.Nodes {
			n := wn.Node
			path := fmt.Sprintf("windows[%d].nodes[%d]", wi, ni)
			if _, dup := remap[n.ID]; dup {
				return nil, fieldErr("snapshot", path+".id", "duplicate id %d", n.ID)
			}
			if wn.Parent == nil {
				return nil, fieldErr("snapshot", path+".parent", "required (-1 for the window's root)")
			}
			n.Parent = *wn.Parent
			switch {
			case n.Parent < 0:
				if hasRoot {
					return nil, fieldErr("snapshot", path+".parent", "second root in window %d", wi)
				}
				hasRoot = true
			default:
				p, ok := remap[n.Parent]
				if !ok {
					return nil, fieldErr("snapshot", path+".parent", "parent %d not seen before this node", n.Parent)
				}
				if s.Nodes[p].Window != wi {
					return nil, fieldErr("snapshot", path+".parent", "parent %d is in another window", n.Parent)
				}
				n.Parent = p
			}
			remap[n.ID] = len(s.Nodes)
			n.ID = len(s.Nodes)
			n.Window = wi
			s.Nodes = append(s.Nodes, n)
		}
	}
	if err := s.finish("snapshot"); err != nil {
		return nil, err
	}
	return s, nil
}

// jsonErr turns an encoding/json error into a FieldError naming the field
// or byte offset.
func jsonErr(format string, err error, dec *json.Decoder) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return &FieldError{Format: format, Field: fmt.Sprintf("offset %d", se.Offset), Err: err}
	case errors.As(err, &te):
		f := te.Field
		if f == "" {
			f = fmt.Sprintf("offset %d", te.Offset)
		}
		return &FieldError{Format: format, Field: f, Err: fmt.Errorf("cannot read %s as %s", te.Value, te.Type)}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &FieldError{Format: format, Field: fmt.Sprintf("offset %d", dec.InputOffset()), Err: errors.New("unexpected end of input")}
	}
	return &FieldError{Format: format, Field: fmt.Sprintf("offset %d", dec.InputOffset()), Err: err}
}
