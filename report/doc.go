// Package report draws a run's plots (PNG and SVG) and writes its one self-contained HTML page:
// facts, tables, figures with captions and the formatting helpers the studies' pages share.
package report
