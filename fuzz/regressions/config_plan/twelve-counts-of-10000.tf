resource "a_b" "r0" {
  count = 10000
}
resource "a_b" "r1" {
  count = 10000
}
resource "a_b" "r2" {
  count = 10000
}
resource "a_b" "r3" {
  count = 10000
}
resource "a_b" "r4" {
  count = 10000
}
resource "a_b" "r5" {
  count = 10000
}
resource "a_b" "r6" {
  count = 10000
}
resource "a_b" "r7" {
  count = 10000
}
resource "a_b" "r8" {
  count = 10000
}
resource "a_b" "r9" {
  count = 10000
}
resource "a_b" "r10" {
  count = 10000
}
resource "a_b" "r11" {
  count = 10000
}
