package reporttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// FindBrowser returns the path of a headless Chromium on PATH, or "".
func FindBrowser() string {
	for _, name := range []string{"chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

var (
	probePlots    = regexp.MustCompile(`data-plots="([0-9]+):([0-9]+)"`)
	probeOverflow = regexp.MustCompile(`data-overflow="([^"]*)"`)
)

// BrowserWidth is the window width, in CSS pixels, that CheckReportInBrowser lays a page out at:
// a laptop's window, narrower than a report's widest column of text (70em).
const BrowserWidth = 1024

// BrowserCheck is what a page looked like in the browser.
type BrowserCheck struct {
	Plots, Shown int      // plots on the page, and those that decoded and are laid out with a width
	Console      []string // the lines Chromium logged: a report has no scripts, so each is an error
	// Overflow describes every element whose content is wider than its box (scrollWidth >
	// clientWidth: text clipped, or spilling past its box) outside an intended scroll box (an
	// element with overflow-x auto or scroll, such as a report's table box or <pre>, and
	// everything inside one), and the page itself when it is wider than the window.
	Overflow []string
}

// overflowProbe finds the elements whose content is wider than their box, skipping intended
// scroll boxes and what they hold, and the page wider than the window.
const overflowProbe = `const over = [];
 const scrolls = el => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
 const name = el => el.tagName.toLowerCase() + (el.className ? "." + el.className : "") + ' "' + el.textContent.trim().slice(0, 60) + '"';
 const walk = el => { if (scrolls(el)) return;
   if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1) over.push(name(el) + ": content " + el.scrollWidth + "px in a box of " + el.clientWidth + "px");
   for (const c of el.children) walk(c); };
 for (const c of document.body.children) walk(c);
 const page = document.documentElement;
 if (page.scrollWidth > window.innerWidth) over.push("the page: " + page.scrollWidth + "px wide in a window of " + window.innerWidth + "px");
 document.body.dataset.overflow = JSON.stringify(over);`

// CheckReportInBrowser loads a report page in headless Chromium (bin), at a window
// BrowserWidth wide, with a probe script added, and returns what it found: the plots and those
// shown, the console lines, and every element whose content overflows its box (clipped text,
// content wider than the page) outside the page's intended scroll boxes. work is a scratch
// directory.
func CheckReportInBrowser(bin string, page []byte, work string) (BrowserCheck, error) {
	var res BrowserCheck
	probe := `<script>window.addEventListener("load", () => { const im = [...document.querySelectorAll("figure.plot img")];` +
		` document.body.dataset.plots = im.length + ":" + im.filter(i => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0).length; ` +
		overflowProbe + ` });</script></body>`
	s := strings.Replace(string(page), "</body>", probe, 1)
	s = strings.Replace(s, "default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1) // admit the probe only
	path := filepath.Join(work, "report.html")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		return res, err
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir="+filepath.Join(work, "profile"),
		"--hide-scrollbars", fmt.Sprintf("--window-size=%d,900", BrowserWidth),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return res, fmt.Errorf("%s: %v\n%s", bin, err, stderr.String())
	}
	m := probePlots.FindStringSubmatch(stdout.String())
	o := probeOverflow.FindStringSubmatch(stdout.String())
	if m == nil || o == nil {
		return res, fmt.Errorf("the probe did not run; DOM:\n%.2000s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	res.Plots, _ = strconv.Atoi(m[1])
	res.Shown, _ = strconv.Atoi(m[2])
	if err := json.Unmarshal([]byte(html.UnescapeString(o[1])), &res.Overflow); err != nil {
		return res, fmt.Errorf("the probe's overflow list: %v", err)
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Refused") || strings.Contains(line, "Failed to load") {
			res.Console = append(res.Console, line)
		}
	}
	return res, nil
}

// Problems lists what makes a page fail the browser check, given the plots it should show:
// plots missing or not shown, console lines, overflowing elements; none when it reads right.
func (c BrowserCheck) Problems(plots int) []string {
	var p []string
	if c.Plots != plots || c.Shown != plots {
		p = append(p, fmt.Sprintf("%d plots found, %d shown, want %d", c.Plots, c.Shown, plots))
	}
	for _, l := range c.Console {
		p = append(p, "console: "+l)
	}
	for _, o := range c.Overflow {
		p = append(p, "overflow: "+o)
	}
	return p
}
