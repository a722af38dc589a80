// Package extsort sorts streams larger than memory (sorted runs on disk, merged).
package extsort
