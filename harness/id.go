package harness

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"time"
)

// NewEventID returns a new event id: a UUIDv7 (its time in milliseconds,
// then random bits), unique across events and sortable by creation time.
// An event keeps its id: Intercept sends it as the request id to every
// backend of the chain, and a retry resends it (AHP-CORE-004).
func NewEventID() string {
	var u [16]byte
	rand.Read(u[6:])
	var ms [8]byte
	binary.BigEndian.PutUint64(ms[:], uint64(time.Now().UnixMilli()))
	copy(u[:6], ms[2:])
	u[6] = u[6]&0x0f | 0x70 // version 7
	u[8] = u[8]&0x3f | 0x80 // RFC 9562 variant
	var b [36]byte
	hex.Encode(b[0:8], u[0:4])
	b[8] = '-'
	hex.Encode(b[9:13], u[4:6])
	b[13] = '-'
	hex.Encode(b[14:18], u[6:8])
	b[18] = '-'
	hex.Encode(b[19:23], u[8:10])
	b[23] = '-'
	hex.Encode(b[24:], u[10:])
	return string(b[:])
}
