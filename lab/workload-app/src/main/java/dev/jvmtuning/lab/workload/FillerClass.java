package dev.jvmtuning.lab.workload;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The bytes of a class file whose only purpose is its size in metaspace: static methods m0(), m1(), ... each of nops and a
 * return. Class file version 52 (Java 8) needs no stack map for straight-line code, so nothing beyond this is written.
 */
final class FillerClass {
    static final String NAME = "dev/jvmtuning/lab/workload/Filler";
    private static final int MAGIC = 0xCAFEBABE;
    private static final int JAVA_8 = 52;
    private static final int UTF8 = 1;
    private static final int CLASS = 7;
    private static final int ACC_PUBLIC = 0x0001;
    private static final int ACC_STATIC = 0x0008;
    private static final int ACC_SUPER = 0x0020;
    private static final int NOP = 0x00;
    private static final int RETURN = 0xB1;

    private FillerClass() {
    }

    /**
     * @param methods how many methods
     * @param nops    the nops in each method before its return
     */
    static byte[] bytes(int methods, int nops) {
        try {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(buffer);
            out.writeInt(MAGIC);
            out.writeShort(0);
            out.writeShort(JAVA_8);
            // Constant pool: 1 this name, 2 this class, 3 super name, 4 super class, 5 "()V", 6 "Code", 7.. method names.
            int firstName = 7;
            out.writeShort(firstName + methods);
            utf8(out, NAME);
            classRef(out, 1);
            utf8(out, "java/lang/Object");
            classRef(out, 3);
            utf8(out, "()V");
            utf8(out, "Code");
            for (int i = 0; i < methods; i++) {
                utf8(out, "m" + i);
            }
            out.writeShort(ACC_PUBLIC | ACC_SUPER);
            out.writeShort(2);
            out.writeShort(4);
            out.writeShort(0); // interfaces
            out.writeShort(0); // fields
            out.writeShort(methods);
            int codeLength = nops + 1;
            for (int i = 0; i < methods; i++) {
                out.writeShort(ACC_PUBLIC | ACC_STATIC);
                out.writeShort(firstName + i);
                out.writeShort(5);
                out.writeShort(1); // attributes: Code
                out.writeShort(6);
                out.writeInt(2 + 2 + 4 + codeLength + 2 + 2);
                out.writeShort(0); // max stack
                out.writeShort(0); // max locals
                out.writeInt(codeLength);
                for (int n = 0; n < nops; n++) {
                    out.writeByte(NOP);
                }
                out.writeByte(RETURN);
                out.writeShort(0); // exception table
                out.writeShort(0); // attributes of the code
            }
            out.writeShort(0); // attributes of the class
            out.flush();
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void utf8(DataOutputStream out, String text) throws IOException {
        out.writeByte(UTF8);
        out.writeUTF(text);
    }

    private static void classRef(DataOutputStream out, int nameIndex) throws IOException {
        out.writeByte(CLASS);
        out.writeShort(nameIndex);
    }
}
