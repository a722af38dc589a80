// Package extsort sorts streams larger than memory (sorted runs on disk, merged) and computes a
// Spearman rank correlation over such streams.
package extsort
