package extsort

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
)

// IndexedValue is a value and the index of its item: the record of the external sorts behind
// the adjusted p-values (Holm, Benjamini–Hochberg).
type IndexedValue struct {
	V float64
	I int64
}

// IndexedValueCodec encodes IndexedValue records in 16 bytes.
var IndexedValueCodec = Codec[IndexedValue]{
	Append: func(dst []byte, v IndexedValue) []byte {
		dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.V))
		return binary.LittleEndian.AppendUint64(dst, uint64(v.I))
	},
	Decode: func(src []byte) (IndexedValue, error) {
		if len(src) != 16 {
			return IndexedValue{}, fmt.Errorf("an indexed-value record of %d bytes", len(src))
		}
		return IndexedValue{math.Float64frombits(binary.LittleEndian.Uint64(src)), int64(binary.LittleEndian.Uint64(src[8:]))}, nil
	},
}

// ByValue orders IndexedValues by value (as <), then index: the order of a stable sort by value
// of items added in index order.
func ByValue(a, b IndexedValue) int {
	switch {
	case a.V < b.V:
		return -1
	case a.V > b.V:
		return 1
	}
	return cmp.Compare(a.I, b.I)
}

// ByIndex orders IndexedValues by index.
func ByIndex(a, b IndexedValue) int { return cmp.Compare(a.I, b.I) }
