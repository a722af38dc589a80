// Package gamefile holds a run's files: one record per game and its CSV, csv.gz and Parquet
// encodings, the board files of a layout sweep, and the run manifest (configuration hash, kind,
// checkpoints, provenance).
package gamefile
