resource "a_b" "c" {
  inner {
    deeper {
      x = var.nowhere
    }
  }
}
