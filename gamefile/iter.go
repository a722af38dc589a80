package gamefile

import (
	"iter"

	"github.com/fairplay-lab/fairplay/internal/seq"
)

// All returns the items that next reads, for a range loop:
//
//	for r, err := range gamefile.All(src.Read) {
//		if err != nil {
//			return err
//		}
//		...
//	}
//
// Each item comes with a nil error until next returns io.EOF, where the sequence ends cleanly.
// Any other error is yielded once, with T's zero value (nil for a pointer), and ends the
// sequence. Breaking out of the loop stops reading: the reader stays where it was (another
// range goes on from there) and is not closed.
func All[T any](next func() (T, error)) iter.Seq2[T, error] { return seq.All(next) }

// All returns the remaining records of the file, for a range loop (see the function All).
func (c *CSVReader) All() iter.Seq2[*Record, error] { return All(c.Read) }

// All returns the remaining boards of the file, for a range loop (see the function All).
func (b *BoardReader) All() iter.Seq2[*BoardResult, error] { return All(b.Read) }
