package gamefile

import (
	"fmt"
	"os"
	"sync"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/compress/snappy"
	"github.com/parquet-go/parquet-go/compress/zstd"
	"github.com/parquet-go/parquet-go/format"

	kzstd "github.com/klauspost/compress/zstd"
)

// Codec is the compression of a Parquet games file's pages: "snappy" (the default, as
// pyarrow's and DuckDB's) or "zstd" (Zstandard: on random games' move text about 0.7 times
// Snappy's bytes for about twice its compression time). Every Parquet reader reads both.
type Codec string

// The Parquet codecs.
const (
	Snappy Codec = "snappy"
	Zstd   Codec = "zstd"
)

// Codecs lists the codecs in the order help texts show them.
var Codecs = []Codec{Snappy, Zstd}

// ParseCodec checks a codec name ("" means snappy).
func ParseCodec(s string) (Codec, error) {
	if s == "" {
		return Snappy, nil
	}
	for _, c := range Codecs {
		if string(c) == s {
			return c, nil
		}
	}
	return "", fmt.Errorf("parquet codec %q: want snappy or zstd", s)
}

// pages is the page codec of the Parquet writer.
func (c Codec) pages() compress.Codec {
	if c == Zstd {
		return zstdCodec
	}
	return snappyCodec
}

// snappyCodec compresses Parquet pages in Snappy's format with klauspost/compress's s2
// encoder at its fast setting (s2.EncodeSnappy). parquet-go's own Snappy codec calls the
// "better" setting (s2.EncodeSnappyBetter): on random Katarenga games 5% fewer bytes for 1.3
// times the encoding's CPU time (docs/performance.md).
var snappyCodec = &snappyPages{}

type snappyPages struct{ snappy.Codec } // Decode, String, CompressionCodec

func (*snappyPages) Encode(dst, src []byte) ([]byte, error) { return s2.EncodeSnappy(dst, src), nil }

// zstdCodec compresses Parquet pages: Zstandard at its fastest level (5% more bytes than the
// default level on random games' move lists, at three quarters of the CPU time), as
// parquet-go's codec, with a window of 512 kB instead of the level's default of megabytes.
// Pages are compressed one at a time and hold ~256 kB (PageBufferSize), so the frames are the
// same, but each encoder's history buffer is small: a run at W workers keeps W encoders (at
// 16, the default window's histories took ~100 MB).
var zstdCodec = &zstdPages{Codec: &zstd.Codec{Level: zstd.SpeedFastest}}

type zstdPages struct {
	*zstd.Codec // Decode, String, CompressionCodec
	encoders    sync.Pool
}

func (c *zstdPages) Encode(dst, src []byte) ([]byte, error) {
	e, _ := c.encoders.Get().(*kzstd.Encoder)
	if e == nil {
		var err error
		e, err = kzstd.NewWriter(nil, kzstd.WithEncoderConcurrency(1), kzstd.WithEncoderLevel(kzstd.SpeedFastest),
			kzstd.WithZeroFrames(true), kzstd.WithEncoderCRC(false), kzstd.WithWindowSize(512<<10))
		if err != nil {
			return dst, err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	c.encoders.Put(e)
	return out, nil
}

// ParquetCodec returns the codec of a Parquet games file's pages (that of its first column
// chunk; a fairplay file uses one for every column), or "" for a file of no games (no row
// group records one). A codec other than Snappy or Zstandard is an error.
func ParquetCodec(path string) (Codec, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return "", err
	}
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return "", fmt.Errorf("%s: not a Parquet file: %w", path, err)
	}
	groups := pf.Metadata().RowGroups
	if len(groups) == 0 || len(groups[0].Columns) == 0 {
		return "", nil
	}
	switch c := groups[0].Columns[0].MetaData.Codec; c {
	case format.Snappy:
		return Snappy, nil
	case format.Zstd:
		return Zstd, nil
	default:
		return "", fmt.Errorf("%s: parquet codec %s: want snappy or zstd", path, c)
	}
}
