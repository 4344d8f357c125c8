resource "a_b" "c" {
  tags = {
    x = 1
  }
  x = 1
  inner {
    y = 2
  }
  x = 2
}
