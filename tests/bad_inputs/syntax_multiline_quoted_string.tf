locals {
  greeting = "hello
  world"
}
