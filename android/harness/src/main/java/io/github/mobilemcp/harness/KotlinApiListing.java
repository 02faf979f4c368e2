package io.github.mobilemcp.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import kotlin.Metadata;
import kotlin.metadata.Attributes;
import kotlin.metadata.ClassKind;
import kotlin.metadata.KmAnnotation;
import kotlin.metadata.KmClass;
import kotlin.metadata.KmClassifier;
import kotlin.metadata.KmConstructor;
import kotlin.metadata.KmFunction;
import kotlin.metadata.KmProperty;
import kotlin.metadata.KmType;
import kotlin.metadata.KmTypeParameter;
import kotlin.metadata.KmTypeProjection;
import kotlin.metadata.KmValueParameter;
import kotlin.metadata.KmVariance;
import kotlin.metadata.MemberKind;
import kotlin.metadata.Modality;
import kotlin.metadata.Visibility;
import kotlin.metadata.jvm.JvmExtensionsKt;
import kotlin.metadata.jvm.JvmMemberSignature;
import kotlin.metadata.jvm.JvmMetadataUtil;
import kotlin.metadata.jvm.KotlinClassMetadata;
import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * The public API of a Kotlin module as a Kotlin caller sees it, for scripts/api-listing.sh: every
 * public class, object and file facade of one package of the module's compiled classes, with its
 * public and protected members in Kotlin form, read from their Kotlin metadata (kotlin-metadata-jvm).
 * A caller of {@code suspend fun send(request: Request, timeout: Duration = ...): Reply} sees a
 * suspending function, a {@code kotlin.time.Duration}, a default argument and a type that is not
 * null, where the JVM signature shows an {@code Object}, a {@code long} and a {@code Continuation}.
 *
 * <p>Usage: {@code KotlinApiListing CLASSES PACKAGE [PATH]}: CLASSES is the module's classes
 * directory, PACKAGE the package to list (not its subpackages), PATH the classpath (directories and
 * jars, separated by ':') where the annotations' classes are looked up. An annotation whose class is
 * itself annotated {@code @kotlin.RequiresOptIn} (an opt-in marker, such as
 * io.github.mobilemcp.client.ProviderFormatApi) is listed before what it marks; other annotations are
 * not API of the listing. Classes are listed by name, members in the order of the metadata (the
 * order the compiler writes them in), so the listing is the same for the same classes. A function
 * whose JVM name is not its Kotlin name ends in a comment that says it ({@code // JVM name: ...}).
 *
 * <p>A class of the package without Kotlin metadata (Java in a Kotlin module) is an error: this
 * listing would not show it.
 */
public final class KotlinApiListing {
    private static final Pattern FUNCTION_TYPE = Pattern.compile("kotlin/(Function|coroutines/SuspendFunction)[0-9]+");
    private static final String OPT_IN_MARKER = "Lkotlin/RequiresOptIn;";

    private final Path classes;
    private final ClassLoader lookup;
    private final Map<String, Boolean> optInMarkers = new HashMap<>();
    private final PrintStream out;

    private KotlinApiListing(Path classes, ClassLoader lookup, PrintStream out) {
        this.classes = classes;
        this.lookup = lookup;
        this.out = out;
    }

    /** Prints the listing of {@code args[1]} in the classes directory {@code args[0]}; exits 2 on bad usage, 1 on a class it cannot list. */
    public static void main(String[] args) throws IOException {
        if (args.length < 2 || args.length > 3) {
            System.err.println("usage: KotlinApiListing CLASSES PACKAGE [PATH]");
            System.exit(2);
        }
        Path classes = Paths.get(args[0]);
        List<URL> urls = new ArrayList<>();
        urls.add(classes.toUri().toURL());
        if (args.length == 3) {
            for (String entry : args[2].split(":")) {
                if (!entry.isEmpty()) {
                    urls.add(url(entry));
                }
            }
        }
        try (URLClassLoader lookup = new URLClassLoader(urls.toArray(new URL[0]), null)) {
            new KotlinApiListing(classes, lookup, System.out).list(args[1]);
        } catch (IllegalStateException e) {
            System.err.println("KotlinApiListing: " + e.getMessage());
            System.exit(1);
        }
    }

    private static URL url(String entry) {
        try {
            return Paths.get(entry).toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(entry, e);
        }
    }

    /** One class file: its internal name, ASM's reading of it and its Kotlin metadata (null without). */
    private static final class ClassFile {
        final String internalName;
        final ClassNode node;
        final KotlinClassMetadata metadata;

        ClassFile(String internalName, ClassNode node, KotlinClassMetadata metadata) {
            this.internalName = internalName;
            this.node = node;
            this.metadata = metadata;
        }
    }

    private void list(String pkg) throws IOException {
        Path dir = classes.resolve(pkg.replace('.', '/'));
        if (!Files.isDirectory(dir)) {
            return;
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".class"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.class"))
                    .sorted()
                    .collect(Collectors.toList());
        }
        // Kotlin names (a/b/Outer.Inner) of the module's classes, to tell whether a nested class is reachable.
        Map<String, KmClass> byKotlinName = new HashMap<>();
        // Listed in order of their Kotlin name (file facades by their JVM name).
        TreeMap<String, ClassFile> listed = new TreeMap<>();
        for (Path file : files) {
            ClassNode node = ClassNode.read(file);
            if ((node.access & Opcodes.ACC_SYNTHETIC) != 0) {
                continue;
            }
            KotlinClassMetadata metadata = node.metadata == null ? null : KotlinClassMetadata.readStrict(node.metadata);
            if (metadata == null) {
                if ((node.access & Opcodes.ACC_PUBLIC) != 0 && !isAndroidR(node.name)) {
                    throw new IllegalStateException(node.name.replace('/', '.') + " has no Kotlin metadata (Java?); a Kotlin module's listing lists Kotlin only");
                }
                continue;
            }
            if (metadata instanceof KotlinClassMetadata.Class) {
                KmClass k = ((KotlinClassMetadata.Class) metadata).getKmClass();
                byKotlinName.put(k.getName(), k);
                listed.put(k.getName().replace('/', '.'), new ClassFile(node.name, node, metadata));
            } else if (metadata instanceof KotlinClassMetadata.FileFacade) {
                listed.put(node.name.replace('/', '.'), new ClassFile(node.name, node, metadata));
            } else if (metadata instanceof KotlinClassMetadata.MultiFileClassFacade
                    || metadata instanceof KotlinClassMetadata.MultiFileClassPart) {
                throw new IllegalStateException(node.name.replace('/', '.') + " is part of a @JvmMultifileClass, which this listing does not read");
            }
            // Synthetic classes (lambdas, $WhenMappings) are no API.
        }
        for (Map.Entry<String, ClassFile> e : listed.entrySet()) {
            ClassFile c = e.getValue();
            if (c.metadata instanceof KotlinClassMetadata.Class) {
                KmClass k = ((KotlinClassMetadata.Class) c.metadata).getKmClass();
                if (reachable(k, byKotlinName)) {
                    printClass(k, c.node);
                }
            } else {
                printFacade(e.getKey(), ((KotlinClassMetadata.FileFacade) c.metadata).getKmPackage(), c.node);
            }
        }
    }

    private static boolean isAndroidR(String internalName) {
        String simple = internalName.substring(internalName.lastIndexOf('/') + 1);
        return simple.equals("R") || simple.startsWith("R$");
    }

    /** Whether a class, and each class it is nested in, is public or protected. */
    private static boolean reachable(KmClass k, Map<String, KmClass> byKotlinName) {
        for (KmClass c = k; c != null; ) {
            if (!visible(Attributes.getVisibility(c))) {
                return false;
            }
            int dot = c.getName().lastIndexOf('.');
            c = dot < 0 ? null : byKotlinName.get(c.getName().substring(0, dot));
        }
        return true;
    }

    private static boolean visible(Visibility v) {
        return v == Visibility.PUBLIC || v == Visibility.PROTECTED;
    }

    private void printClass(KmClass k, ClassNode node) {
        TypeParameters scope = new TypeParameters(null, k.getTypeParameters());
        StringBuilder line = new StringBuilder();
        line.append(markers(node.classAnnotations));
        line.append(Attributes.getVisibility(k).name().toLowerCase()).append(' ');
        ClassKind kind = Attributes.getKind(k);
        Modality modality = Attributes.getModality(k);
        boolean isInterface = kind == ClassKind.INTERFACE;
        if (kind == ClassKind.CLASS && modality != Modality.FINAL) {
            line.append(modality.name().toLowerCase()).append(' ');
        }
        if (Attributes.isData(k)) {
            line.append("data ");
        }
        if (Attributes.isValue(k)) {
            line.append("value ");
        }
        if (Attributes.isInner(k)) {
            line.append("inner ");
        }
        if (Attributes.isFunInterface(k)) {
            line.append("fun ");
        }
        switch (kind) {
            case INTERFACE: line.append("interface "); break;
            case ENUM_CLASS: line.append("enum class "); break;
            case ANNOTATION_CLASS: line.append("annotation class "); break;
            case OBJECT: line.append("object "); break;
            case COMPANION_OBJECT: line.append("companion object "); break;
            default: line.append("class "); break;
        }
        line.append(k.getName().replace('/', '.'));
        line.append(typeParameters(k.getTypeParameters(), scope));
        List<String> supertypes = new ArrayList<>();
        for (KmType t : k.getSupertypes()) {
            String s = type(t, scope);
            if (!s.equals("kotlin.Any") && !(kind == ClassKind.ENUM_CLASS && s.startsWith("kotlin.Enum<"))
                    && !(kind == ClassKind.ANNOTATION_CLASS && s.equals("kotlin.Annotation"))) {
                supertypes.add(s);
            }
        }
        if (!supertypes.isEmpty()) {
            line.append(" : ").append(String.join(", ", supertypes));
        }
        line.append(whereClause(k.getTypeParameters(), scope)).append(" {");
        out.println(line);
        // A protected member is API where a subclass can reach it: not in a final class.
        boolean subclassable = modality != Modality.FINAL || isInterface;
        for (String entry : k.getEnumEntries()) {
            out.println("  enum entry " + entry);
        }
        for (KmConstructor c : k.getConstructors()) {
            Visibility v = Attributes.getVisibility(c);
            if (!member(v, subclassable)) {
                continue;
            }
            JvmMemberSignature sig = JvmExtensionsKt.getSignature(c);
            out.println("  " + markers(sig == null ? null : node.methodAnnotations.get(sig.getName() + sig.getDescriptor()))
                    + v.name().toLowerCase() + " constructor(" + parameters(c.getValueParameters(), scope) + ")");
        }
        // A public companion object is listed as a class of its own.
        printMembers(k.getProperties(), k.getFunctions(), node, scope, subclassable, isInterface);
        out.println("}");
    }

    private void printFacade(String name, kotlin.metadata.KmPackage p, ClassNode node) {
        out.println("file " + name + " {");
        printMembers(p.getProperties(), p.getFunctions(), node, new TypeParameters(null, List.of()), false, false);
        out.println("}");
    }

    private static boolean member(Visibility v, boolean subclassable) {
        return v == Visibility.PUBLIC || v == Visibility.PROTECTED && subclassable;
    }

    private void printMembers(List<KmProperty> properties, List<KmFunction> functions, ClassNode node, TypeParameters outer,
            boolean subclassable, boolean isInterface) {
        for (KmProperty p : properties) {
            Visibility v = Attributes.getVisibility(p);
            if (!member(v, subclassable) || Attributes.getKind(p) == MemberKind.FAKE_OVERRIDE) {
                continue;
            }
            TypeParameters scope = new TypeParameters(outer, p.getTypeParameters());
            List<List<String>> annotations = new ArrayList<>();
            for (JvmMemberSignature sig : new JvmMemberSignature[] {
                    JvmExtensionsKt.getSyntheticMethodForAnnotations(p), JvmExtensionsKt.getGetterSignature(p), JvmExtensionsKt.getSetterSignature(p)}) {
                if (sig != null) {
                    annotations.add(node.methodAnnotations.get(sig.getName() + sig.getDescriptor()));
                }
            }
            StringBuilder line = new StringBuilder("  ");
            line.append(markers(annotations.stream().filter(a -> a != null).flatMap(List::stream).distinct().collect(Collectors.toList())));
            line.append(v.name().toLowerCase()).append(' ').append(modality(Attributes.getModality(p), subclassable, isInterface));
            if (Attributes.isConst(p)) {
                line.append("const ");
            }
            if (Attributes.isLateinit(p)) {
                line.append("lateinit ");
            }
            boolean settable = Attributes.isVar(p) && p.getSetter() != null && member(Attributes.getVisibility(p.getSetter()), subclassable);
            line.append(settable ? "var " : "val ");
            line.append(typeParameters(p.getTypeParameters(), scope).stripLeading());
            if (!p.getTypeParameters().isEmpty()) {
                line.append(' ');
            }
            if (p.getReceiverParameterType() != null) {
                line.append(receiver(p.getReceiverParameterType(), scope)).append('.');
            }
            line.append(p.getName()).append(": ").append(type(p.getReturnType(), scope));
            line.append(whereClause(p.getTypeParameters(), scope));
            out.println(line);
        }
        for (KmFunction f : functions) {
            Visibility v = Attributes.getVisibility(f);
            if (!member(v, subclassable) || Attributes.getKind(f) == MemberKind.FAKE_OVERRIDE) {
                continue;
            }
            TypeParameters scope = new TypeParameters(outer, f.getTypeParameters());
            JvmMemberSignature sig = JvmExtensionsKt.getSignature(f);
            StringBuilder line = new StringBuilder("  ");
            line.append(markers(sig == null ? null : node.methodAnnotations.get(sig.getName() + sig.getDescriptor())));
            line.append(v.name().toLowerCase()).append(' ').append(modality(Attributes.getModality(f), subclassable, isInterface));
            if (Attributes.isInline(f)) {
                line.append("inline ");
            }
            if (Attributes.isOperator(f)) {
                line.append("operator ");
            }
            if (Attributes.isInfix(f)) {
                line.append("infix ");
            }
            if (Attributes.isSuspend(f)) {
                line.append("suspend ");
            }
            line.append("fun ").append(typeParameters(f.getTypeParameters(), scope).stripLeading());
            if (!f.getTypeParameters().isEmpty()) {
                line.append(' ');
            }
            if (f.getReceiverParameterType() != null) {
                line.append(receiver(f.getReceiverParameterType(), scope)).append('.');
            }
            line.append(f.getName()).append('(').append(parameters(f.getValueParameters(), scope)).append(')');
            String returns = type(f.getReturnType(), scope);
            if (!returns.equals("kotlin.Unit")) {
                line.append(": ").append(returns);
            }
            line.append(whereClause(f.getTypeParameters(), scope));
            // What a Java caller calls, where it is not the Kotlin name: a @JvmName, or a name the
            // compiler mangled for an inline class such as kotlin.time.Duration (send-8Mi8wO0),
            // which scripts/api-listing.sh refuses.
            if (sig != null && !sig.getName().equals(f.getName())) {
                line.append("  // JVM name: ").append(sig.getName());
            }
            out.println(line);
        }
    }

    /**
     * "open " or "abstract " where a subclass may override the member, else "": in a final class
     * (or a file) nothing is overridden; in an interface a member is abstract unless it has a body.
     */
    private static String modality(Modality m, boolean subclassable, boolean isInterface) {
        if (!subclassable) {
            return "";
        }
        if (isInterface) {
            return m == Modality.OPEN ? "open " : "";
        }
        return m == Modality.FINAL ? "" : m.name().toLowerCase() + " ";
    }

    /** The opt-in markers among the annotations (descriptors such as La/b/C;), each as "@a.b.C ". */
    private String markers(List<String> descriptors) {
        if (descriptors == null) {
            return "";
        }
        StringBuilder s = new StringBuilder();
        for (String d : descriptors) {
            if (isOptInMarker(d)) {
                s.append('@').append(d, 1, d.length() - 1).append(' ');
            }
        }
        return s.toString().replace('/', '.').replace('$', '.');
    }

    /** Whether the annotation class of a descriptor is annotated @kotlin.RequiresOptIn. */
    private boolean isOptInMarker(String descriptor) {
        return optInMarkers.computeIfAbsent(descriptor, d -> {
            String resource = d.substring(1, d.length() - 1) + ".class";
            try (InputStream in = lookup.getResourceAsStream(resource)) {
                if (in == null) {
                    return false;
                }
                return ClassNode.read(in).classAnnotations.contains(OPT_IN_MARKER);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    private String parameters(List<KmValueParameter> parameters, TypeParameters scope) {
        List<String> list = new ArrayList<>();
        for (KmValueParameter p : parameters) {
            StringBuilder s = new StringBuilder();
            KmType vararg = p.getVarargElementType();
            if (vararg != null) {
                s.append("vararg ");
            }
            s.append(p.getName()).append(": ").append(type(vararg != null ? vararg : p.getType(), scope));
            if (Attributes.getDeclaresDefaultValue(p)) {
                s.append(" = ...");
            }
            list.add(s.toString());
        }
        return String.join(", ", list);
    }

    /** "<reified T, R : kotlin.Comparable<R>>", or "" without type parameters. */
    private String typeParameters(List<KmTypeParameter> parameters, TypeParameters scope) {
        if (parameters.isEmpty()) {
            return "";
        }
        List<String> list = new ArrayList<>();
        for (KmTypeParameter p : parameters) {
            StringBuilder s = new StringBuilder();
            if (Attributes.isReified(p)) {
                s.append("reified ");
            }
            s.append(variance(p.getVariance())).append(p.getName());
            if (p.getUpperBounds().size() == 1) {
                s.append(" : ").append(type(p.getUpperBounds().get(0), scope));
            }
            list.add(s.toString());
        }
        return "<" + String.join(", ", list) + ">";
    }

    /** " where T : A, T : B" for the type parameters with more than one bound, or "". */
    private String whereClause(List<KmTypeParameter> parameters, TypeParameters scope) {
        List<String> list = new ArrayList<>();
        for (KmTypeParameter p : parameters) {
            if (p.getUpperBounds().size() > 1) {
                for (KmType bound : p.getUpperBounds()) {
                    list.add(p.getName() + " : " + type(bound, scope));
                }
            }
        }
        return list.isEmpty() ? "" : " where " + String.join(", ", list);
    }

    private static String variance(KmVariance v) {
        switch (v) {
            case IN: return "in ";
            case OUT: return "out ";
            default: return "";
        }
    }

    /** An extension receiver: a function type or a nullable one in parentheses. */
    private String receiver(KmType t, TypeParameters scope) {
        String s = type(t, scope);
        return isFunctionType(t) && !Attributes.isNullable(t) ? "(" + s + ")" : s;
    }

    private static boolean isFunctionType(KmType t) {
        return t.getClassifier() instanceof KmClassifier.Class
                && FUNCTION_TYPE.matcher(((KmClassifier.Class) t.getClassifier()).getName()).matches();
    }

    /** A type as Kotlin writes it, with fully qualified names: kotlin.collections.Map<kotlin.String, kotlin.Any?>. */
    private String type(KmType t, TypeParameters scope) {
        String s;
        KmClassifier c = t.getClassifier();
        if (isFunctionType(t)) {
            s = functionType(t, scope);
            return Attributes.isNullable(t) ? "(" + s + ")?" : s;
        }
        if (c instanceof KmClassifier.TypeParameter) {
            s = scope.name(((KmClassifier.TypeParameter) c).getId());
        } else if (c instanceof KmClassifier.TypeAlias) {
            s = ((KmClassifier.TypeAlias) c).getName().replace('/', '.');
        } else {
            s = ((KmClassifier.Class) c).getName().replace('/', '.');
        }
        if (!t.getArguments().isEmpty()) {
            s += "<" + t.getArguments().stream().map(a -> projection(a, scope)).collect(Collectors.joining(", ")) + ">";
        }
        if (Attributes.isNullable(t)) {
            s += "?";
        } else if (Attributes.isDefinitelyNonNull(t)) {
            s += " & Any";
        }
        return s;
    }

    private String projection(KmTypeProjection p, TypeParameters scope) {
        if (p.getType() == null) {
            return "*";
        }
        return variance(p.getVariance()) + type(p.getType(), scope);
    }

    /**
     * (A, B) -> R, A.(B) -> R for an extension function type, and suspend (A) -> R, which the
     * metadata writes as a function type of one more parameter, a Continuation of R.
     */
    private String functionType(KmType t, TypeParameters scope) {
        List<KmTypeProjection> arguments = new ArrayList<>(t.getArguments());
        KmTypeProjection result = arguments.remove(arguments.size() - 1);
        String returns = projectionType(result, scope);
        boolean suspend = Attributes.isSuspend(t);
        if (suspend && !arguments.isEmpty()) {
            KmType last = arguments.get(arguments.size() - 1).getType();
            if (last != null && last.getClassifier() instanceof KmClassifier.Class
                    && ((KmClassifier.Class) last.getClassifier()).getName().equals("kotlin/coroutines/Continuation")) {
                arguments.remove(arguments.size() - 1);
                returns = projectionType(last.getArguments().get(0), scope);
            }
        }
        String receiver = "";
        boolean extension = JvmExtensionsKt.getAnnotations(t).stream()
                .map(KmAnnotation::getClassName).anyMatch("kotlin/ExtensionFunctionType"::equals);
        if (extension && !arguments.isEmpty()) {
            receiver = projectionType(arguments.remove(0), scope) + ".";
        }
        String params = arguments.stream().map(a -> projectionType(a, scope)).collect(Collectors.joining(", "));
        return (suspend ? "suspend " : "") + receiver + "(" + params + ") -> " + returns;
    }

    private String projectionType(KmTypeProjection p, TypeParameters scope) {
        return p.getType() == null ? "*" : type(p.getType(), scope);
    }

    /** The names of the type parameters in scope, by the ids the metadata refers to them with. */
    private static final class TypeParameters {
        private final Map<Integer, String> names = new HashMap<>();

        TypeParameters(TypeParameters outer, List<KmTypeParameter> declared) {
            if (outer != null) {
                names.putAll(outer.names);
            }
            for (KmTypeParameter p : declared) {
                names.put(p.getId(), p.getName());
            }
        }

        String name(int id) {
            String name = names.get(id);
            if (name == null) {
                throw new IllegalStateException("a type refers to type parameter " + id + ", which is not in scope");
            }
            return name;
        }
    }

    /** What the listing reads of a class file with ASM: its name, access, Kotlin metadata and annotations. */
    private static final class ClassNode extends ClassVisitor {
        String name;
        int access;
        Metadata metadata;
        final List<String> classAnnotations = new ArrayList<>();
        /** The annotations of each method, by name and descriptor. */
        final Map<String, List<String>> methodAnnotations = new HashMap<>();
        // kotlin.Metadata's values, as ASM visits them.
        private Integer kind;
        private int[] metadataVersion;
        private String[] data1;
        private String[] data2;
        private String extraString;
        private String packageName;
        private Integer extraInt;

        private ClassNode() {
            super(Opcodes.ASM9);
        }

        static ClassNode read(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                return read(in);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        static ClassNode read(InputStream in) throws IOException {
            ClassNode node = new ClassNode();
            new ClassReader(in).accept(node, ClassReader.SKIP_CODE | ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            if (node.kind != null) {
                node.metadata = JvmMetadataUtil.Metadata(node.kind, node.metadataVersion, node.data1, node.data2,
                        node.extraString, node.packageName, node.extraInt);
            }
            return node;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            this.name = name;
            this.access = access;
        }

        @Override
        public AnnotationVisitor visitAnnotation(String descriptor, boolean visible) {
            classAnnotations.add(descriptor);
            return descriptor.equals("Lkotlin/Metadata;") ? new MetadataVisitor() : null;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature, String[] exceptions) {
            List<String> annotations = new ArrayList<>();
            methodAnnotations.put(name + descriptor, annotations);
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public AnnotationVisitor visitAnnotation(String annotation, boolean visible) {
                    annotations.add(annotation);
                    return null;
                }
            };
        }

        /** Collects kotlin.Metadata's values: k, mv, d1, d2, xs, pn, xi. */
        private final class MetadataVisitor extends AnnotationVisitor {
            MetadataVisitor() {
                super(Opcodes.ASM9);
            }

            @Override
            public void visit(String name, Object value) {
                switch (name) {
                    case "k": kind = (Integer) value; break;
                    case "mv": metadataVersion = (int[]) value; break;
                    case "xs": extraString = (String) value; break;
                    case "pn": packageName = (String) value; break;
                    case "xi": extraInt = (Integer) value; break;
                    default: break;
                }
            }

            @Override
            public AnnotationVisitor visitArray(String name) {
                List<String> values = new ArrayList<>();
                return new AnnotationVisitor(Opcodes.ASM9) {
                    @Override
                    public void visit(String unused, Object value) {
                        values.add((String) value);
                    }

                    @Override
                    public void visitEnd() {
                        if (name.equals("d1")) {
                            data1 = values.toArray(new String[0]);
                        } else if (name.equals("d2")) {
                            data2 = values.toArray(new String[0]);
                        }
                    }
                };
            }
        }
    }
}
