locals {
  "quoted" = 1
}
