variable "region" {
  default = "eu-west-1"

resource "aws_instance" "web" {
  ami = "ami-123"
}

output "id" {
  value = aws_instance.web.id
}
