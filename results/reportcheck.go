package results

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
)

// CheckReportHTML parses a report page and checks that it is self-contained: an html document
// with a head, a title and a body, every image a data URI, no scripts, no external style sheets
// or frames, and no attribute naming a network address. It returns the number of plots.
func CheckReportHTML(r io.Reader) (plots int, err error) {
	doc, err := html.Parse(r)
	if err != nil {
		return 0, fmt.Errorf("report: %w", err)
	}
	seen := map[string]bool{}
	var walk func(n *html.Node) error
	walk = func(n *html.Node) error {
		if n.Type == html.ElementNode {
			seen[n.Data] = true
			switch n.Data {
			case "script", "iframe", "object", "embed", "link", "base":
				return fmt.Errorf("report: a <%s> element", n.Data)
			case "img":
				src := attr(n, "src")
				if !strings.HasPrefix(src, "data:image/") {
					return fmt.Errorf("report: an image that is not a data URI: %.60q", src)
				}
				plots++
			}
			for _, a := range n.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				if strings.HasPrefix(v, "http:") || strings.HasPrefix(v, "https:") || strings.HasPrefix(v, "//") {
					return fmt.Errorf("report: <%s %s=%q> names a network address", n.Data, a.Key, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if err := walk(c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(doc); err != nil {
		return 0, err
	}
	for _, el := range []string{"html", "head", "title", "body", "h1"} {
		if !seen[el] {
			return 0, fmt.Errorf("report: no <%s> element", el)
		}
	}
	return plots, nil
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
