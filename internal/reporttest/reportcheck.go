package reporttest

import (
	"bytes"
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

var probeResult = regexp.MustCompile(`data-plots="([0-9]+):([0-9]+)"`)

// CheckReportInBrowser loads a report page in headless Chromium (bin) with a probe script
// added, and returns the number of plots found, the number that decoded and are laid out with
// a width, and the console lines Chromium logged (a report has no scripts of its own, so any
// console line is an error: a blocked fetch, a bad image). work is a scratch directory.
func CheckReportInBrowser(bin string, page []byte, work string) (found, decoded int, console []string, err error) {
	probe := `<script>window.addEventListener("load", () => { const im = [...document.querySelectorAll("figure.plot img")];` +
		` document.body.dataset.plots = im.length + ":" + im.filter(i => i.complete && i.naturalWidth > 0 && i.getBoundingClientRect().width > 0).length; });</script></body>`
	s := strings.Replace(string(page), "</body>", probe, 1)
	s = strings.Replace(s, "default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1) // admit the probe only
	path := filepath.Join(work, "report.html")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		return 0, 0, nil, err
	}
	cmd := exec.Command(bin, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir="+filepath.Join(work, "profile"),
		"--enable-logging=stderr", "--v=0", "--virtual-time-budget=5000", "--dump-dom", "file://"+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return 0, 0, nil, fmt.Errorf("%s: %v\n%s", bin, err, stderr.String())
	}
	m := probeResult.FindStringSubmatch(stdout.String())
	if m == nil {
		return 0, 0, nil, fmt.Errorf("the probe did not run; DOM:\n%.2000s\nstderr:\n%s", stdout.String(), stderr.String())
	}
	found, _ = strconv.Atoi(m[1])
	decoded, _ = strconv.Atoi(m[2])
	for _, line := range strings.Split(stderr.String(), "\n") {
		if strings.Contains(line, "CONSOLE") || strings.Contains(line, "Refused") || strings.Contains(line, "Failed to load") {
			console = append(console, line)
		}
	}
	return found, decoded, console, nil
}
