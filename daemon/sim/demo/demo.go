// Package demo is the built-in demo phone: a small notes app, written here
// (not recorded), in the DroidTask/DroidBot format, so `make demo` and
// `wayfinder demo` run the main job without ../shared and without a key.
// The package owns only this data; the simulator (daemon/sim) plays it, and
// the scripted inspector controller (daemon/sim/demo/scripted) shows it.
package demo

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"testing/fstest"

	"github.com/wayfinder-agent/wayfinder/daemon/droidtask"
	"github.com/wayfinder-agent/wayfinder/daemon/screen"
)

// App is the demo app's name in the data set; Package its package.
const (
	App     = "notebook"
	Package = "dev.wayfinder.demo.notebook"
)

// view declares one view of a demo screen; children nest.
type view struct {
	class, rid, text, desc, hint        string
	b                                   [4]int
	click, check, checked, edit, scroll bool
	kids                                []view
}

func rid(name string) string { return Package + ":id/" + name }

func toolbar(title string, up bool, extra ...view) view {
	kids := []view{{class: "android.widget.TextView", rid: rid("toolbar_title"), text: title, b: [4]int{180, 90, 700, 200}}}
	if up {
		kids = append([]view{{class: "android.widget.ImageButton", desc: "Navigate up", b: [4]int{20, 80, 160, 210}, click: true}}, kids...)
	}
	return view{class: "android.view.ViewGroup", rid: rid("toolbar"), b: [4]int{0, 60, 1080, 230}, kids: append(kids, extra...)}
}

// notes are the titles the home screen lists.
var notes = []string{"Shopping list", "Trip ideas", "Books to read"}

// Notes returns the titles of the notes the recorded home screen lists.
func Notes() []string { return slices.Clone(notes) }

func home(titles []string) view {
	rows := []view{}
	for i, t := range titles {
		if i == 8 {
			break // the list's visible rows
		}
		top := 260 + i*200
		rows = append(rows, view{class: "android.widget.LinearLayout", rid: rid("note_row"), b: [4]int{0, top, 1080, top + 190}, click: true,
			kids: []view{{class: "android.widget.TextView", rid: rid("note_title"), text: t, b: [4]int{40, top + 30, 1040, top + 160}}}})
	}
	return view{class: "android.widget.FrameLayout", b: [4]int{0, 0, 1080, 2280}, kids: []view{
		toolbar("Notebook", false,
			view{class: "android.widget.ImageButton", rid: rid("search"), desc: "Search", b: [4]int{760, 80, 900, 210}, click: true},
			view{class: "android.widget.ImageView", desc: "More options", b: [4]int{920, 80, 1060, 210}, click: true}),
		{class: "androidx.recyclerview.widget.RecyclerView", rid: rid("notes_list"), b: [4]int{0, 240, 1080, 2100}, scroll: true, kids: rows},
		{class: "android.widget.ImageButton", rid: rid("fab_add"), desc: "Create a new note", b: [4]int{860, 1960, 1040, 2120}, click: true},
	}}
}

func menu() view {
	items := []view{}
	for i, t := range []string{"Sort by", "Settings", "About"} {
		top := 100 + i*140
		items = append(items, view{class: "android.widget.LinearLayout", b: [4]int{560, top, 1060, top + 140}, click: true,
			kids: []view{{class: "android.widget.TextView", rid: rid("title"), text: t, b: [4]int{600, top + 30, 1040, top + 110}}}})
	}
	return view{class: "android.widget.FrameLayout", b: [4]int{560, 100, 1060, 520}, kids: []view{
		{class: "android.widget.ListView", b: [4]int{560, 100, 1060, 520}, kids: items}}}
}

func settings(dark bool, font string) view {
	return view{class: "android.widget.FrameLayout", b: [4]int{0, 0, 1080, 2280}, kids: []view{
		toolbar("Settings", true),
		{class: "android.widget.ScrollView", b: [4]int{0, 240, 1080, 2280}, scroll: true, kids: []view{
			{class: "android.widget.LinearLayout", b: [4]int{0, 240, 1080, 1000}, kids: []view{
				{class: "android.widget.TextView", rid: rid("section_appearance"), text: "Appearance", b: [4]int{40, 260, 1040, 330}},
				{class: "android.widget.Switch", rid: rid("settings_dark_mode"), text: "Dark mode", b: [4]int{0, 340, 1080, 480}, click: true, check: true, checked: dark},
				{class: "android.widget.RelativeLayout", rid: rid("settings_font_size_holder"), b: [4]int{0, 490, 1080, 650}, click: true, kids: []view{
					{class: "android.widget.TextView", rid: rid("settings_font_size_label"), text: "Font size", b: [4]int{40, 500, 700, 570}},
					{class: "android.widget.TextView", rid: rid("settings_font_size"), text: font, b: [4]int{40, 570, 700, 640}}}},
				{class: "android.widget.Switch", rid: rid("settings_word_count"), text: "Show word count", b: [4]int{0, 660, 1080, 800}, click: true, check: true},
			}}}},
	}}
}

func fontDialog() view {
	opts := []view{}
	for i, t := range []string{"Small", "Medium", "Large"} {
		top := 900 + i*130
		opts = append(opts, view{class: "android.widget.RadioButton", text: t, b: [4]int{100, top, 980, top + 120}, click: true, check: true, checked: t == "Medium"})
	}
	return view{class: "android.widget.FrameLayout", b: [4]int{80, 760, 1000, 1420}, kids: []view{
		{class: "android.widget.TextView", rid: rid("alertTitle"), text: "Font size", b: [4]int{100, 780, 980, 880}},
		{class: "android.widget.RadioGroup", b: [4]int{100, 900, 980, 1290}, kids: opts},
		{class: "android.widget.Button", rid: rid("button2"), text: "Cancel", b: [4]int{600, 1300, 980, 1400}, click: true}}}
}

func newNote(title string) view {
	return view{class: "android.widget.FrameLayout", b: [4]int{80, 800, 1000, 1400}, kids: []view{
		{class: "android.widget.TextView", rid: rid("dialog_title"), text: "New note", b: [4]int{120, 820, 960, 920}},
		{class: "android.widget.EditText", rid: rid("new_note_title"), text: title, b: [4]int{120, 940, 960, 1080}, click: true, edit: true},
		{class: "android.widget.LinearLayout", b: [4]int{120, 1200, 960, 1360}, kids: []view{
			{class: "android.widget.Button", rid: rid("button2"), text: "Cancel", b: [4]int{120, 1220, 520, 1340}, click: true},
			{class: "android.widget.Button", rid: rid("button1"), text: "Create", b: [4]int{560, 1220, 960, 1340}, click: true}}}}}
}

func editor(title string) view {
	return view{class: "android.widget.FrameLayout", b: [4]int{0, 0, 1080, 2280}, kids: []view{
		toolbar(title, true, view{class: "android.widget.ImageButton", rid: rid("save_note"), desc: "Save", b: [4]int{920, 80, 1060, 210}, click: true}),
		{class: "android.widget.EditText", rid: rid("note_body"), hint: "Start writing", b: [4]int{0, 240, 1080, 2280}, click: true, edit: true, scroll: true}}}
}

func about() view {
	return view{class: "android.widget.FrameLayout", b: [4]int{0, 0, 1080, 2280}, kids: []view{
		toolbar("About", true),
		{class: "android.widget.TextView", rid: rid("about_version"), text: "Notebook 1.0", b: [4]int{40, 300, 1040, 400}}}}
}

// Variant changes what a screen of the demo app shows, for a scripted
// phone whose notes change (daemon/sim/demo/scripted); the zero value is
// the recorded app.
type Variant struct {
	Notes []string // "home": the note titles listed (nil: the recorded ones)
	Title string   // "new_note": the text in the title field; "editor": the toolbar title
}

// screens of the demo app: state id -> (activity, root view).
func screens(v Variant) map[string]struct {
	activity string
	root     view
} {
	type sc = struct {
		activity string
		root     view
	}
	main, set, ed := Package+"/.MainActivity", Package+"/.SettingsActivity", Package+"/.EditorActivity"
	titles, field, heading := v.Notes, v.Title, v.Title
	if titles == nil {
		titles = notes
	}
	if field == "" {
		field = "Title"
	}
	if heading == "" {
		heading = "Note"
	}
	return map[string]sc{
		"home":           {main, home(titles)},
		"menu":           {main, menu()},
		"settings":       {set, settings(false, "Medium")},
		"settings_dark":  {set, settings(true, "Medium")},
		"settings_large": {set, settings(false, "Large")},
		"settings_small": {set, settings(false, "Small")},
		"font_dialog":    {set, fontDialog()},
		"new_note":       {main, newNote(field)},
		"editor":         {ed, editor(heading)},
		"about":          {Package + "/.AboutActivity", about()},
	}
}

// edges of the exploration: from, action, target (a view's text, desc or
// resource name), to.
var edges = []struct {
	from, action, target, to string
}{
	{"home", "click", "More options", "menu"},
	{"menu", "click", "Settings", "settings"},
	{"menu", "click", "About", "about"},
	{"menu", "key", "", "home"},
	{"about", "key", "", "home"},
	{"settings", "click", "Dark mode", "settings_dark"},
	{"settings_dark", "click", "Dark mode", "settings"},
	{"settings", "click", "settings_font_size_holder", "font_dialog"},
	{"font_dialog", "click", "Large", "settings_large"},
	{"font_dialog", "click", "Small", "settings_small"},
	{"font_dialog", "click", "Cancel", "settings"},
	{"settings", "key", "", "home"},
	{"settings_dark", "key", "", "home"},
	{"home", "click", "Create a new note", "new_note"},
	{"new_note", "input", "new_note_title", "new_note"},
	{"new_note", "enter", "new_note_title", "editor"}, // Enter in the title creates the note, as Create does
	{"new_note", "click", "Create", "editor"},
	{"new_note", "click", "Cancel", "home"},
	{"home", "click", "Shopping list", "editor"}, // a note's row opens it
	{"home", "click", "Trip ideas", "editor"},
	{"home", "click", "Books to read", "editor"},
	{"editor", "key", "", "home"},
	{"editor", "click", "Navigate up", "home"},
}

// flatten writes a view tree as DroidBot's flat view list.
func flatten(v view, parent int, out *[]map[string]any) int {
	id := len(*out)
	m := map[string]any{
		"temp_id": id, "parent": parent, "class": v.class, "package": Package,
		"resource_id": nilIfEmpty(v.rid), "text": nilIfEmpty(v.text), "content_description": nilIfEmpty(v.desc), "hint": nilIfEmpty(v.hint),
		"bounds": [][2]int{{v.b[0], v.b[1]}, {v.b[2], v.b[3]}}, "visible": true, "enabled": true,
		"clickable": v.click, "long_clickable": false, "checkable": v.check, "checked": v.checked,
		"editable": v.edit, "scrollable": v.scroll, "selected": false, "focusable": v.click || v.edit,
		"focused": false, "is_password": false, "children": []int{},
	}
	*out = append(*out, m)
	var kids []int
	for _, k := range v.kids {
		kids = append(kids, flatten(k, id, out))
	}
	if kids != nil {
		m["children"] = kids
	}
	return id
}

func nilIfEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}

// find returns the temp_id of the first view whose text, desc or resource
// name is name.
func find(views []map[string]any, name string) (int, error) {
	for _, v := range views {
		for _, k := range []string{"text", "content_description", "resource_id"} {
			if s, ok := v[k].(string); ok && (s == name || s == rid(name)) {
				return v["temp_id"].(int), nil
			}
		}
	}
	return 0, fmt.Errorf("demo: no view %q", name)
}

// state returns the DroidBot state file of screen id and its flat view
// list.
func state(id, activity string, root view) ([]byte, []map[string]any, error) {
	var vs []map[string]any
	flatten(root, -1, &vs)
	b, err := json.Marshal(map[string]any{"tag": "demo", "state_str": id, "foreground_activity": activity,
		"activity_stack": []string{activity}, "width": 1080, "height": 2280, "views": vs})
	return b, vs, err
}

// States lists the demo app's state ids, sorted.
func States() []string {
	var ids []string
	for id := range screens(Variant{}) {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Snapshot returns screen id of the demo app as the simulator shows it
// (parsed from its DroidBot capture), changed by v. The error names an
// unknown id.
func Snapshot(id string, v Variant) (*screen.Snapshot, error) {
	sc, ok := screens(v)[id]
	if !ok {
		return nil, fmt.Errorf("demo: no screen %q", id)
	}
	b, _, err := state(id, sc.activity, sc.root)
	if err != nil {
		return nil, err
	}
	return screen.ParseDroidBot(b)
}

// FS returns the demo app as a DroidTask-format file tree.
func FS() (fstest.MapFS, error) {
	fsys := fstest.MapFS{}
	views := map[string][]map[string]any{}
	for id, sc := range screens(Variant{}) {
		b, vs, err := state(id, sc.activity, sc.root)
		if err != nil {
			return nil, err
		}
		views[id] = vs
		fsys["apps/"+App+"/states/"+id+".json"] = &fstest.MapFile{Data: b}
	}
	var lines []byte
	for _, e := range edges {
		t := map[string]any{"app": App, "source": "droidbot_event", "from": e.from, "to": e.to, "count": 1,
			"event_tags": []string{"demo"}, "from_known": true, "to_known": true}
		switch e.action {
		case "key":
			t["action"] = map[string]any{"type": "key", "key": "BACK"}
		case "enter": // a DroidBot KeyEvent ENTER, with the field it was pressed in
			id, err := find(views[e.from], e.target)
			if err != nil {
				return nil, err
			}
			t["action"] = map[string]any{"type": "key", "key": "ENTER"}
			t["target"] = map[string]any{"temp_id": id, "canonical_temp_id": id}
		default:
			id, err := find(views[e.from], e.target)
			if err != nil {
				return nil, err
			}
			a := map[string]any{"type": e.action}
			if e.action == "input" {
				a["text"] = "Groceries"
			}
			t["action"] = a
			t["target"] = map[string]any{"temp_id": id, "canonical_temp_id": id}
		}
		b, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		lines = append(append(lines, b...), '\n')
	}
	fsys["transitions.jsonl"] = &fstest.MapFile{Data: lines}
	apps, err := json.Marshal(map[string]any{App: map[string]any{"main_package": Package,
		"launch_entry_states": []string{"home"}, "task_start_states": []string{"home"}}})
	if err != nil {
		return nil, err
	}
	fsys["apps.json"] = &fstest.MapFile{Data: apps}
	return fsys, nil
}

// Load returns the demo app as a loaded data set.
func Load() (*droidtask.Dataset, error) {
	fsys, err := FS()
	if err != nil {
		return nil, err
	}
	return droidtask.LoadFS(fsys, "built-in demo phone")
}
