package demo

import (
	"encoding/json"
	"fmt"

	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// node is one view of a demo screen; kids are nested views.
type node struct {
	class, rid, text, desc, hint string
	b                            screen.Rect
	click, edit, check, scroll   bool
	kids                         []node
}

// build turns a view tree into a snapshot through the snapshot JSON parser,
// so the demo's screens are what the Android service would send.
func build(activity string, root node) *screen.Snapshot {
	type wnode struct {
		ID          int         `json:"id"`
		Parent      int         `json:"parent"`
		Class       string      `json:"class,omitempty"`
		Package     string      `json:"package,omitempty"`
		ResourceID  string      `json:"resource_id,omitempty"`
		Text        string      `json:"text,omitempty"`
		ContentDesc string      `json:"content_desc,omitempty"`
		Hint        string      `json:"hint,omitempty"`
		Bounds      screen.Rect `json:"bounds"`
		Clickable   bool        `json:"clickable,omitempty"`
		Checkable   bool        `json:"checkable,omitempty"`
		Editable    bool        `json:"editable,omitempty"`
		Scrollable  bool        `json:"scrollable,omitempty"`
		Enabled     bool        `json:"enabled"`
		Visible     bool        `json:"visible_to_user"`
	}
	var nodes []wnode
	var walk func(n node, parent int)
	walk = func(n node, parent int) {
		id := len(nodes)
		rid := ""
		if n.rid != "" {
			rid = App + ":id/" + n.rid
		}
		nodes = append(nodes, wnode{ID: id, Parent: parent, Class: n.class, Package: App, ResourceID: rid, Text: n.text,
			ContentDesc: n.desc, Hint: n.hint, Bounds: n.b, Clickable: n.click || n.edit, Checkable: n.check,
			Editable: n.edit, Scrollable: n.scroll, Enabled: true, Visible: true})
		for _, k := range n.kids {
			walk(k, id)
		}
	}
	walk(root, -1)
	doc := map[string]any{"schema": 1, "width": Width, "height": Height, "activity": activity, "package": App,
		"windows": []any{map[string]any{"id": 1, "type": "application", "package": App, "layer": 1, "focused": true,
			"bounds": screen.Rect{0, 0, Width, Height}, "nodes": nodes}}}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(fmt.Sprintf("demo: encoding screen: %v", err)) // static data: cannot fail
	}
	s, err := screen.ParseJSON(b)
	if err != nil {
		panic(fmt.Sprintf("demo: screen %s: %v", activity, err)) // static data: a bug here, not input
	}
	return s
}

func toolbar(kids ...node) node {
	return node{class: "android.view.ViewGroup", rid: "toolbar", b: screen.Rect{0, 84, Width, 232}, kids: kids}
}

// listScreen is the list of notes with a search button and a "New note"
// button.
func listScreen(notes []string) *screen.Snapshot {
	rows := []node{}
	for i, t := range notes {
		if i == 8 {
			break
		}
		top := 260 + i*196
		rows = append(rows, node{class: "android.widget.LinearLayout", rid: "note_row", b: screen.Rect{0, top, Width, top + 188}, click: true,
			kids: []node{
				{class: "android.widget.TextView", rid: "note_title", text: t, b: screen.Rect{56, top + 30, 1000, top + 96}},
				{class: "android.widget.TextView", rid: "note_date", text: edited(i), b: screen.Rect{56, top + 104, 700, top + 156}},
			}})
	}
	return build(App+"/.NotesActivity", node{class: "android.widget.FrameLayout", b: screen.Rect{0, 0, Width, Height}, kids: []node{
		toolbar(
			node{class: "android.widget.TextView", rid: "title", text: "Notes", b: screen.Rect{56, 116, 500, 200}},
			node{class: "android.widget.ImageButton", rid: "search", desc: "Search", b: screen.Rect{896, 100, 1032, 216}, click: true},
		),
		{class: "androidx.recyclerview.widget.RecyclerView", rid: "notes", b: screen.Rect{0, 244, Width, 2200}, scroll: true, kids: rows},
		{class: "android.widget.ImageButton", rid: "fab", desc: "New note", b: screen.Rect{856, 2120, 1024, 2288}, click: true},
	}})
}

// editorScreen is the note editor.
func editorScreen(title, body string) *screen.Snapshot {
	return build(App+"/.EditorActivity", node{class: "android.widget.FrameLayout", b: screen.Rect{0, 0, Width, Height}, kids: []node{
		toolbar(
			node{class: "android.widget.ImageButton", desc: "Navigate up", b: screen.Rect{16, 100, 148, 216}, click: true},
			node{class: "android.widget.TextView", rid: "title", text: "New note", b: screen.Rect{176, 116, 640, 200}},
			node{class: "android.widget.Button", rid: "save", text: "Save", b: screen.Rect{840, 108, 1040, 208}, click: true},
		),
		{class: "android.widget.EditText", rid: "note_title", hint: "Title", text: title, b: screen.Rect{48, 272, 1032, 416}, edit: true},
		{class: "android.widget.EditText", rid: "note_body", hint: "Note", text: body, b: screen.Rect{48, 440, 1032, 1320}, edit: true},
		{class: "android.widget.CheckBox", rid: "pin", text: "Pin to top", b: screen.Rect{48, 1360, 640, 1470}, check: true},
	}})
}

// searchScreen is the search page.
func searchScreen() *screen.Snapshot {
	return build(App+"/.SearchActivity", node{class: "android.widget.FrameLayout", b: screen.Rect{0, 0, Width, Height}, kids: []node{
		toolbar(
			node{class: "android.widget.ImageButton", desc: "Navigate up", b: screen.Rect{16, 100, 148, 216}, click: true},
			node{class: "android.widget.EditText", rid: "query", hint: "Search notes", b: screen.Rect{176, 108, 1040, 208}, edit: true},
		),
		{class: "android.widget.TextView", rid: "empty", text: "Type to search your notes", b: screen.Rect{200, 1100, 880, 1180}},
	}})
}

func edited(i int) string {
	switch i {
	case 0:
		return "Edited today"
	case 1:
		return "Edited yesterday"
	}
	return fmt.Sprintf("Edited %d days ago", i)
}
