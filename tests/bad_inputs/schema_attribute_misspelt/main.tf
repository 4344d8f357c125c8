resource "aws_instance" "web" {
  ami = "ami-123"
}

output "id" {
  value = aws_instance.web.amii
}
