resource "a_b" "c" {
  outer {
    inner {
      x = = 2
    }
  }
}
