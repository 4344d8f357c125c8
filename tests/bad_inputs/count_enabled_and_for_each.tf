resource "a_b" "c" {
  count = 1
  lifecycle {
    enabled = true
  }
  for_each = {}
}
