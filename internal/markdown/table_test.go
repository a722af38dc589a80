package markdown

import "testing"

// The exact bytes: header, alignment row, rows; short rows padded with empty cells.
func TestTable(t *testing.T) {
	tab := NewTable("level", "metric", "n").Right(2)
	tab.Row("`a`", "outcomes", 3)
	tab.Row("`b`", "", 12)
	tab.Row("`c`")
	want := "| level | metric | n |\n|---|---|---:|\n| `a` | outcomes | 3 |\n| `b` |  | 12 |\n| `c` |  |  |\n"
	if got := tab.String(); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if tab.Len() != 3 {
		t.Errorf("Len %d", tab.Len())
	}
}

func TestTableRowTooLong(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a row longer than the header was accepted")
		}
	}()
	NewTable("a").Row(1, 2)
}

func TestTableColumnsRows(t *testing.T) {
	tab := NewTable("a", "b")
	tab.Row(1)
	if c, r := tab.Columns(), tab.Rows(); len(c) != 2 || len(r) != 1 || r[0][0] != "1" || r[0][1] != "" {
		t.Errorf("columns %q rows %q", c, r)
	}
}
