// Package reporttest checks report pages in tests: the HTML parses, is self-contained, and renders
// in a headless Chromium without console errors.
package reporttest
