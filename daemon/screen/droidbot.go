package screen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// droidbotState is DroidBot's state JSON (a flat view list), as recorded in
// the DroidTask data set of AutoDroid (Wen et al., MobiCom 2024).
type droidbotState struct {
	Tag                string         `json:"tag"`
	StateStr           string         `json:"state_str"`
	ForegroundActivity string         `json:"foreground_activity"`
	Width              int            `json:"width"`
	Height             int            `json:"height"`
	Views              []droidbotView `json:"views"`
}

type droidbotView struct {
	TempID      *int    `json:"temp_id"`
	Parent      int     `json:"parent"`
	Children    []int   `json:"children"`
	Class       *string `json:"class"`
	Package     *string `json:"package"`
	ResourceID  *string `json:"resource_id"`
	Text        *string `json:"text"`
	ContentDesc *string `json:"content_description"`
	// Hint is no DroidBot field: the demo app writes a field's hint
	// apart from its text, as the Android service reports it (a field
	// showing its hint has no text).
	Hint          *string  `json:"hint"`
	Bounds        [][2]int `json:"bounds"`
	Visible       bool     `json:"visible"`
	Enabled       bool     `json:"enabled"`
	Clickable     bool     `json:"clickable"`
	LongClickable bool     `json:"long_clickable"`
	Checkable     bool     `json:"checkable"`
	Checked       bool     `json:"checked"`
	Editable      bool     `json:"editable"`
	Scrollable    bool     `json:"scrollable"`
	Selected      bool     `json:"selected"`
	Focusable     bool     `json:"focusable"`
	Focused       bool     `json:"focused"`
	IsPassword    bool     `json:"is_password"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// ParseDroidBot parses one DroidBot state JSON file. Node IDs equal the
// views' temp_id (DroidBot writes views in pre-order, parents first), so a
// DroidTask target's temp_id addresses the node directly. DroidBot records
// one window; it becomes an application window of the foreground package.
func ParseDroidBot(b []byte) (*Snapshot, error) {
	var st droidbotState
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&st); err != nil {
		return nil, jsonErr("droidbot", err, dec)
	}
	if len(st.Views) == 0 {
		return nil, fieldErr("droidbot", "views", "no views")
	}
	if len(st.Views) > MaxNodes {
		return nil, fieldErr("droidbot", "views", "%d views exceed the limit of %d", len(st.Views), MaxNodes)
	}
	s := &Snapshot{Width: st.Width, Height: st.Height, Activity: st.ForegroundActivity, Source: "droidbot", StateID: st.StateStr}
	if i := strings.IndexByte(st.ForegroundActivity, '/'); i > 0 {
		s.Package = st.ForegroundActivity[:i]
	}
	s.Nodes = make([]Node, len(st.Views))
	for i, v := range st.Views {
		path := fmt.Sprintf("views[%d]", i)
		if v.TempID == nil || *v.TempID != i {
			return nil, fieldErr("droidbot", path+".temp_id", "want %d", i)
		}
		if len(v.Bounds) != 2 {
			return nil, fieldErr("droidbot", path+".bounds", "want [[x1,y1],[x2,y2]], got %d points", len(v.Bounds))
		}
		if v.Parent < -1 || v.Parent >= len(st.Views) {
			return nil, fieldErr("droidbot", path+".parent", "parent %d out of range", v.Parent)
		}
		s.Nodes[i] = Node{
			ID: i, Parent: v.Parent, Class: str(v.Class), Package: str(v.Package),
			ResourceID: str(v.ResourceID), Text: str(v.Text), ContentDesc: str(v.ContentDesc), Hint: str(v.Hint),
			Bounds:    Rect{v.Bounds[0][0], v.Bounds[0][1], v.Bounds[1][0], v.Bounds[1][1]},
			Clickable: v.Clickable, LongClickable: v.LongClickable, Checkable: v.Checkable, Checked: v.Checked,
			Editable: v.Editable, Scrollable: v.Scrollable, Focusable: v.Focusable, Focused: v.Focused,
			Selected: v.Selected, Enabled: v.Enabled, Visible: v.Visible, Password: v.IsPassword,
		}
		if s.Package == "" && v.Parent < 0 {
			s.Package = str(v.Package)
		}
	}
	// DroidBot may record several roots (one per window it saw): each root
	// opens a window, later ones on top.
	for i := range s.Nodes {
		n := &s.Nodes[i]
		if n.Parent < 0 {
			n.Window = len(s.Windows)
			s.Windows = append(s.Windows, Window{ID: len(s.Windows), Type: WindowApplication, Package: n.Package,
				Layer: len(s.Windows), Focused: len(s.Windows) == 0, Bounds: n.Bounds})
			continue
		}
		if n.Parent >= i {
			return nil, fieldErr("droidbot", fmt.Sprintf("views[%d].parent", i), "parent %d does not precede its child", n.Parent)
		}
		n.Window = s.Nodes[n.Parent].Window
	}
	if err := s.finish("droidbot"); err != nil {
		return nil, err
	}
	return s, nil
}
