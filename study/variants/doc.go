// Package variants is the rule-variant study: every variant value played at every level of a rated
// strength ladder, with differences, multiple-comparison corrections and trends over strength.
package variants
