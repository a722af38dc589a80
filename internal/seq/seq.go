// Package seq turns a reader's Read or Next method into a range-over-func sequence.
package seq

import (
	"io"
	"iter"
)

// All is the sequence of what next returns: each item with a nil error until next returns
// io.EOF, where the sequence ends cleanly. Any other error is yielded once, with T's zero value
// (nil for a pointer), and ends the sequence. Breaking out of the loop stops reading: the
// reader stays where it was (another range goes on from there) and is not closed.
func All[T any](next func() (T, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		for {
			v, err := next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var zero T
				yield(zero, err)
				return
			}
			if !yield(v, nil) {
				return
			}
		}
	}
}
