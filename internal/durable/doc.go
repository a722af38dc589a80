// Package durable writes a run's files so that nothing is lost: temporary files committed by rename,
// checkpoints, queued positional writes, drop-behind of written windows and the run directory's lock.
package durable
