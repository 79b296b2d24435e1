//go:build race

package course_test

// raceDetector: the tests run under the race detector, whose sync.Pool drops what it is given
// at random, so that a pooled buffer is allocated anew now and then.
const raceDetector = true
