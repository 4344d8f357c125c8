locals {
  path = "C:\Users\me"
}
