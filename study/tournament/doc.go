// Package tournament plays every pairing of several agents and fits joint Bradley-Terry ratings
// with bootstrap intervals; finished tournaments combine into one scale.
package tournament
