// Package reliability holds hekla's reliability tests against a real server
// (see README.md); the programs are under cmd/ and the checks in their own
// packages.
package reliability
