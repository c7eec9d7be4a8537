import sys,struct
b=bytearray(open(sys.argv[1],'rb').read())
b[8]=7
struct.pack_into('<I',b,0x30,0x005a055a)
open(sys.argv[2],'wb').write(b)
