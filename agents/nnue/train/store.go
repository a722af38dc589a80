package train

import (
	"bufio"
	"compress/gzip"
	"encoding/gob"
	"fmt"
	"os"
)

// Save writes the data set (gob, gzip-compressed), so that several fits can share one
// generation.
func (d *Data) Save(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	zw := gzip.NewWriter(f)
	bw := bufio.NewWriter(zw)
	err = gob.NewEncoder(bw).Encode(d)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// LoadData reads a data set written by Save.
func LoadData(path string) (*Data, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(bufio.NewReader(f))
	if err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	var d Data
	if err := gob.NewDecoder(zr).Decode(&d); err != nil {
		return nil, fmt.Errorf("data file %s: %w", path, err)
	}
	if d.Game == "katarenga" {
		for i := range d.Samples {
			if g := d.Samples[i].Game; g < 0 || int(g) >= len(d.Colours) {
				return nil, fmt.Errorf("data file %s: sample %d names game %d of %d", path, i, g, len(d.Colours))
			}
		}
	}
	return &d, nil
}

// Merge appends the games of o to d (the same game): o's games are numbered after d's.
func (d *Data) Merge(o *Data) error {
	if o.Game != d.Game {
		return fmt.Errorf("cannot merge %s positions into %s ones", o.Game, d.Game)
	}
	base := int32(d.Games)
	for _, s := range o.Samples {
		s.Game += base
		d.Samples = append(d.Samples, s)
	}
	d.Colours = append(d.Colours, o.Colours...)
	d.Games += o.Games
	return nil
}
