resource "a_b" "c" {
  count = 18446744073709551617
}
