package screen

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ParseUIAutomator parses the XML written by `uiautomator dump`
// (<hierarchy><node .../></hierarchy>). Every top-level <node> opens a
// window (a dump of all windows has one per window; the last is on top).
// Errors name the byte offset and the attribute. Width and height come from
// the largest root's bounds; activity is unknown to the format.
func ParseUIAutomator(b []byte) (*Snapshot, error) {
	dec := xml.NewDecoder(bytes.NewReader(b))
	dec.Strict = true
	s := &Snapshot{Source: "uiautomator"}
	var stack []int // open <node> IDs
	sawHierarchy := false
	inHierarchy := false // a <hierarchy> is open
	depth := 0
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &FieldError{Format: "uiautomator", Field: fmt.Sprintf("offset %d", dec.InputOffset()), Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			switch t.Name.Local {
			case "hierarchy":
				if depth != 1 {
					return nil, fieldErr("uiautomator", fmt.Sprintf("offset %d", off), "nested <hierarchy>")
				}
				sawHierarchy, inHierarchy = true, true
			case "node":
				if !inHierarchy {
					return nil, fieldErr("uiautomator", fmt.Sprintf("offset %d", off), "<node> outside <hierarchy>")
				}
				if len(s.Nodes) >= MaxNodes {
					return nil, fieldErr("uiautomator", fmt.Sprintf("offset %d", off), "more than %d nodes", MaxNodes)
				}
				n, err := uiaNode(t.Attr)
				if err != nil {
					return nil, &FieldError{Format: "uiautomator", Field: fmt.Sprintf("offset %d", off), Err: err}
				}
				n.ID = len(s.Nodes)
				if len(stack) == 0 {
					n.Parent = -1
					n.Window = len(s.Windows)
					s.Windows = append(s.Windows, Window{ID: len(s.Windows), Type: WindowApplication,
						Package: n.Package, Layer: len(s.Windows), Bounds: n.Bounds})
				} else {
					n.Parent = stack[len(stack)-1]
					n.Window = s.Nodes[n.Parent].Window
				}
				s.Nodes = append(s.Nodes, n)
				stack = append(stack, n.ID)
			default:
				return nil, fieldErr("uiautomator", fmt.Sprintf("offset %d", off), "unexpected element <%s>", t.Name.Local)
			}
		case xml.EndElement:
			depth--
			switch t.Name.Local {
			case "node":
				stack = stack[:len(stack)-1]
			case "hierarchy":
				inHierarchy = false
			}
		}
	}
	if !sawHierarchy {
		return nil, fieldErr("uiautomator", "offset 0", "no <hierarchy> element")
	}
	if len(s.Windows) > 0 {
		top := &s.Windows[len(s.Windows)-1]
		top.Focused = true
		s.Package = top.Package
	}
	if err := s.finish("uiautomator"); err != nil {
		return nil, err
	}
	return s, nil
}

func uiaNode(attrs []xml.Attr) (Node, error) {
	n := Node{Visible: true}
	for _, a := range attrs {
		v := a.Value
		var err error
		switch a.Name.Local {
		case "text":
			n.Text = v
		case "resource-id":
			n.ResourceID = v
		case "class":
			n.Class = v
		case "package":
			n.Package = v
		case "content-desc":
			n.ContentDesc = v
		case "hint":
			n.Hint = v
		// not written by stock `uiautomator dump`; read when a dumper adds
		// them (MarshalUIAutomator does, so they round-trip)
		case "state-description":
			n.StateDesc = v
		case "error":
			n.Error = v
		case "pane-title":
			n.PaneTitle = v
		case "input-type":
			n.InputType, err = strconv.Atoi(v)
		case "actions":
			n.Actions = strings.FieldsFunc(v, func(r rune) bool { return r == '|' })
		case "bounds":
			n.Bounds, err = parseUIABounds(v)
		case "checkable":
			n.Checkable, err = strconv.ParseBool(v)
		case "checked":
			n.Checked, err = strconv.ParseBool(v)
		case "clickable":
			n.Clickable, err = strconv.ParseBool(v)
		case "enabled":
			n.Enabled, err = strconv.ParseBool(v)
		case "focusable":
			n.Focusable, err = strconv.ParseBool(v)
		case "focused":
			n.Focused, err = strconv.ParseBool(v)
		case "scrollable":
			n.Scrollable, err = strconv.ParseBool(v)
		case "long-clickable":
			n.LongClickable, err = strconv.ParseBool(v)
		case "password":
			n.Password, err = strconv.ParseBool(v)
		case "selected":
			n.Selected, err = strconv.ParseBool(v)
		case "visible-to-user":
			n.Visible, err = strconv.ParseBool(v)
		case "editable":
			n.Editable, err = strconv.ParseBool(v)
		}
		if err != nil {
			return n, fmt.Errorf("attribute %s=%q: %w", a.Name.Local, v, err)
		}
	}
	// uiautomator (before API 33) has no editable attribute: EditText and
	// its subclasses are the editable widgets.
	if !n.Editable && strings.HasSuffix(n.Class, "EditText") {
		n.Editable = true
	}
	return n, nil
}

var errBounds = errors.New("want [left,top][right,bottom]")

func parseUIABounds(v string) (Rect, error) {
	var r Rect
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return r, errBounds
	}
	parts := strings.Split(strings.Trim(v, "[]"), "][")
	if len(parts) != 2 {
		return r, errBounds
	}
	for i, p := range parts {
		xy := strings.Split(p, ",")
		if len(xy) != 2 {
			return r, errBounds
		}
		for j, c := range xy {
			n, err := strconv.Atoi(strings.TrimSpace(c))
			if err != nil {
				return r, errBounds
			}
			r[i*2+j] = n
		}
	}
	return r, nil
}

// MarshalUIAutomator writes the snapshot as `uiautomator dump` XML, one
// top-level <node> per window in layer order (bottom first). Attributes
// absent from the format (window type, activity) are lost; everything else
// round-trips through ParseUIAutomator.
func MarshalUIAutomator(s *Snapshot) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")
	enc := xml.NewEncoder(&buf)
	root := xml.StartElement{Name: xml.Name{Local: "hierarchy"}, Attr: []xml.Attr{{Name: xml.Name{Local: "rotation"}, Value: "0"}}}
	if err := enc.EncodeToken(root); err != nil {
		return nil, err
	}
	roots := s.Roots()
	for i := len(roots) - 1; i >= 0; i-- { // bottom window first
		if err := uiaEncode(enc, s, roots[i], 0); err != nil {
			return nil, err
		}
	}
	if err := enc.EncodeToken(root.End()); err != nil {
		return nil, err
	}
	if err := enc.Flush(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func uiaEncode(enc *xml.Encoder, s *Snapshot, id, index int) error {
	n := s.Node(id)
	b := func(k string, v bool) xml.Attr {
		return xml.Attr{Name: xml.Name{Local: k}, Value: strconv.FormatBool(v)}
	}
	a := func(k, v string) xml.Attr { return xml.Attr{Name: xml.Name{Local: k}, Value: v} }
	el := xml.StartElement{Name: xml.Name{Local: "node"}, Attr: []xml.Attr{
		a("index", strconv.Itoa(index)), a("text", n.Text), a("resource-id", n.ResourceID), a("class", n.Class),
		a("package", n.Package), a("content-desc", n.ContentDesc), a("hint", n.Hint),
		b("checkable", n.Checkable), b("checked", n.Checked), b("clickable", n.Clickable), b("enabled", n.Enabled),
		b("focusable", n.Focusable), b("focused", n.Focused), b("scrollable", n.Scrollable),
		b("long-clickable", n.LongClickable), b("password", n.Password), b("selected", n.Selected),
		b("editable", n.Editable), b("visible-to-user", n.Visible),
		a("bounds", fmt.Sprintf("[%d,%d][%d,%d]", n.Bounds[0], n.Bounds[1], n.Bounds[2], n.Bounds[3])),
	}}
	for _, x := range []xml.Attr{a("state-description", n.StateDesc), a("error", n.Error), a("pane-title", n.PaneTitle)} {
		if x.Value != "" {
			el.Attr = append(el.Attr, x)
		}
	}
	if n.InputType != 0 {
		el.Attr = append(el.Attr, a("input-type", strconv.Itoa(n.InputType)))
	}
	if len(n.Actions) > 0 {
		el.Attr = append(el.Attr, a("actions", strings.Join(n.Actions, "|")))
	}
	if err := enc.EncodeToken(el); err != nil {
		return err
	}
	for i, c := range n.Children {
		if err := uiaEncode(enc, s, c, i); err != nil {
			return err
		}
	}
	return enc.EncodeToken(el.End())
}
